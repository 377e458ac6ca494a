package engine

import (
	"sync"
	"sync/atomic"
)

// pool runs tasks in a fixed number of slots. Tasks queue without bound
// (a queued task is a closure, far smaller than a goroutine), so a program
// may register a hundred thousand resources at once and only the slots'
// goroutines exist.
//
// A task holds its slot until it returns, unless it gives the slot back
// (slot.release) because all it has left is to wait for something that
// needs no slot, its last journal entry becoming durable, and to report:
// a new goroutine then takes the slot and the next task, and the task
// finishes on its own goroutine, which exits. So at most as many tasks as
// there are slots hold one, and the goroutines never number more than the
// slots plus the tasks that gave theirs back and have not returned, of
// which there are at most givenPerSlot times the slots: steps that compute
// in memory finish thousands at a time while one batch of the journal
// syncs, and each waiting on its own goroutine (with a stack grown deep in
// the engine) cost a 100,000-resource create 50 MB of its peak. A task
// past that bound keeps its slot while it waits, as every task once did.
type pool struct {
	mu      sync.Mutex
	cond    *sync.Cond
	queue   []func(*slot)
	head    int
	closed  bool
	running sync.WaitGroup
	// given counts the tasks that gave their slot back and have not
	// returned; maxGiven bounds it.
	given    atomic.Int64
	maxGiven int64
	// goroutines counts the pool's goroutines alive, for the tests.
	goroutines atomic.Int64
}

// givenPerSlot bounds the tasks waiting without a slot, per slot: enough
// for a journal batch to gather several times the slots' steps.
const givenPerSlot = 4

// slot is a task's hold on one of its pool's slots, handed to the task.
// A caller that holds no slot has a nil *slot.
type slot struct {
	p *pool
	// given says the task gave the slot back; only the task's goroutine
	// touches it.
	given bool
}

func newPool(slots int) *pool {
	p := &pool{maxGiven: int64(givenPerSlot * slots)}
	p.cond = sync.NewCond(&p.mu)
	for range slots {
		p.spawn()
	}
	return p
}

// spawn starts a goroutine that runs tasks in a slot. The caller is
// newPool or a goroutine of the pool, so close cannot have seen the count
// of running goroutines at zero.
func (p *pool) spawn() {
	p.running.Add(1)
	p.goroutines.Add(1)
	go p.work()
}

// submit queues a task. Tasks submitted after close are dropped.
func (p *pool) submit(task func(*slot)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.queue = append(p.queue, task)
	p.cond.Signal()
}

func (p *pool) next() (func(*slot), bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.head == len(p.queue) && !p.closed {
		p.cond.Wait()
	}
	if p.head == len(p.queue) {
		return nil, false
	}
	task := p.queue[p.head]
	p.queue[p.head] = nil
	p.head++
	if p.head == len(p.queue) {
		p.queue, p.head = p.queue[:0], 0
	}
	return task, true
}

// work runs tasks in one slot until the pool closes and its queue is
// empty, or until a task gives the slot back: the slot has gone on to a
// new goroutine then, and this one ends with the task.
func (p *pool) work() {
	defer p.running.Done()
	defer p.goroutines.Add(-1)
	for {
		task, ok := p.next()
		if !ok {
			return
		}
		s := &slot{p: p}
		task(s)
		if s.given {
			p.given.Add(-1)
			return
		}
	}
}

// release gives the slot back to its pool, for the next task to run in
// while the caller finishes without one. Only the task that holds s may
// call it, and only when nothing is left to it that the pool's bound is
// for (a provider call, a hook, a provisioner). A nil slot (the caller
// holds none), a slot already given back, and a slot while the pool has
// as many tasks without one as it allows (maxGiven) do nothing: the task
// then finishes in its slot.
func (s *slot) release() {
	if s == nil || s.given {
		return
	}
	if s.p.given.Add(1) > s.p.maxGiven {
		s.p.given.Add(-1)
		return
	}
	s.given = true
	s.p.spawn()
}

// close lets the slots run the queued tasks and waits for them, and for
// the tasks that gave their slot back.
func (p *pool) close() {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
	p.running.Wait()
}
