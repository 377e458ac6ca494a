package engine

import "sync"

// pool runs tasks on a fixed number of workers. Tasks queue without bound
// (a queued task is a closure, far smaller than a goroutine), so a program
// may register a hundred thousand resources at once and only the workers'
// goroutines exist.
type pool struct {
	mu      sync.Mutex
	cond    *sync.Cond
	queue   []func()
	head    int
	closed  bool
	running sync.WaitGroup
}

func newPool(workers int) *pool {
	p := &pool{}
	p.cond = sync.NewCond(&p.mu)
	p.running.Add(workers)
	for range workers {
		go p.work()
	}
	return p
}

// submit queues a task. Tasks submitted after close are dropped.
func (p *pool) submit(task func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.queue = append(p.queue, task)
	p.cond.Signal()
}

func (p *pool) next() (func(), bool) {
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

func (p *pool) work() {
	defer p.running.Done()
	for {
		task, ok := p.next()
		if !ok {
			return
		}
		task()
	}
}

// close lets the workers finish the queued tasks and waits for them.
func (p *pool) close() {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
	p.running.Wait()
}
