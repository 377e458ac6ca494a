package engine

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPoolGivenBackSlots runs, in each case, tasks that give their slot
// back and then wait on a gate, and tasks that keep their slot: the
// keepers all run while the others wait (their slots are free again),
// never more keepers at once than there are slots, and the pool's
// goroutines are the slots plus the waiting tasks, then none after close.
func TestPoolGivenBackSlots(t *testing.T) {
	tests := map[string]struct{ slots, givers, keepers int }{
		"one slot, one giver":        {slots: 1, givers: 1, keepers: 3},
		"one slot, many givers":      {slots: 1, givers: givenPerSlot, keepers: 8},
		"more givers than slots":     {slots: 3, givers: 10, keepers: 20},
		"more slots than tasks need": {slots: 8, givers: 2, keepers: 2},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := newPool(tc.slots)
			gate := make(chan struct{})
			var waiting, kept sync.WaitGroup
			waiting.Add(tc.givers)
			kept.Add(tc.keepers)
			var holding, most atomic.Int64
			for range tc.givers {
				p.submit(func(s *slot) {
					s.release()
					s.release() // a second call gives back nothing more
					waiting.Done()
					<-gate
				})
			}
			for range tc.keepers {
				p.submit(func(*slot) {
					defer kept.Done()
					n := holding.Add(1)
					defer holding.Add(-1)
					for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
					}
					time.Sleep(time.Millisecond) // long enough for tasks to overlap if they may
				})
			}
			waiting.Wait()
			if !waitTimeout(&kept, 10*time.Second) {
				t.Fatalf("the tasks that keep their slot did not all run while %d tasks that gave theirs back waited", tc.givers)
			}
			if diff := cmp.Diff(int64(tc.slots+tc.givers), p.goroutines.Load()); diff != "" {
				t.Errorf("goroutines while the givers wait, want the slots plus the givers (-want +got):\n%s", diff)
			}
			if m := most.Load(); m > int64(tc.slots) {
				t.Errorf("%d tasks held a slot at once, more than the %d slots", m, tc.slots)
			}
			close(gate)
			if n := settle(&p.goroutines, int64(tc.slots)); n != int64(tc.slots) {
				t.Errorf("%d goroutines once the givers returned, want the %d slots'", n, tc.slots)
			}
			p.close()
			if n := p.goroutines.Load(); n != 0 {
				t.Errorf("%d goroutines alive after close, want 0", n)
			}
		})
	}
}

// TestPoolBoundsGivenBackSlots: no more than givenPerSlot tasks a slot
// give theirs back; the next one to try keeps its slot, and the goroutines
// number the slots plus the tasks that gave theirs back.
func TestPoolBoundsGivenBackSlots(t *testing.T) {
	const slots = 2
	bound := givenPerSlot * slots
	p := newPool(slots)
	gate := make(chan struct{})
	var tried sync.WaitGroup
	var gave, kept atomic.Int64
	tasks := bound + slots // as many as can be waiting at once
	tried.Add(tasks)
	for range tasks {
		p.submit(func(s *slot) {
			s.release()
			if s.given {
				gave.Add(1)
			} else {
				kept.Add(1)
			}
			tried.Done()
			<-gate
		})
	}
	if !waitTimeout(&tried, 10*time.Second) {
		t.Fatalf("only %d gave back and %d kept their slots of %d tasks", gave.Load(), kept.Load(), tasks)
	}
	if gave.Load() != int64(bound) || kept.Load() != slots {
		t.Errorf("%d tasks gave their slot back and %d kept it, want %d and %d", gave.Load(), kept.Load(), bound, slots)
	}
	if n := p.goroutines.Load(); n != int64(slots+bound) {
		t.Errorf("%d goroutines, want the %d slots' and the %d givers'", n, slots, bound)
	}
	close(gate)
	p.close()
	if n := p.given.Load(); n != 0 {
		t.Errorf("%d tasks counted as given back after close, want 0", n)
	}
}

// TestPoolCloseWaitsForGivenBackSlots: close returns only once a task
// that gave its slot back has returned too.
func TestPoolCloseWaitsForGivenBackSlots(t *testing.T) {
	p := newPool(1)
	gate, given := make(chan struct{}), make(chan struct{})
	var finished atomic.Bool
	p.submit(func(s *slot) {
		s.release()
		close(given)
		<-gate
		finished.Store(true)
	})
	<-given
	closed := make(chan struct{})
	go func() { p.close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("close returned while a task that gave its slot back was still running")
	case <-time.After(50 * time.Millisecond):
	}
	close(gate)
	<-closed
	if !finished.Load() {
		t.Error("close returned before the task that gave its slot back finished")
	}
}

// TestNilSlotReleaseDoesNothing: a caller that holds no slot (an
// executor outside a pool task) gives nothing back.
func TestNilSlotReleaseDoesNothing(t *testing.T) {
	p := newPool(2)
	defer p.close()
	var s *slot
	s.release()
	if n := p.goroutines.Load(); n != 2 {
		t.Errorf("%d goroutines after releasing a nil slot, want the 2 slots'", n)
	}
}

// settle waits, for a few seconds at most, until n holds want, and
// returns what it holds then.
func settle(n *atomic.Int64, want int64) int64 {
	for deadline := time.Now().Add(5 * time.Second); n.Load() != want && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	return n.Load()
}

func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}
