package engine_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
)

// slowJournal is a journal whose syncs take as long as the test wants:
// Record of a resource's End or Write entry (a step's last) is applied at
// once, then waits until the test opens the gate, as a step waits for an
// fsync, and only then is the entry durable and Record returns.
type slowJournal struct {
	inner   *state.MemoryJournal
	gate    chan struct{}
	waiting chan string // the name of each resource whose last entry waits
	mu      sync.Mutex
	durable map[string]bool
}

func newSlowJournal(n int) *slowJournal {
	return &slowJournal{inner: state.NewMemoryJournal(nil), gate: make(chan struct{}),
		waiting: make(chan string, n), durable: map[string]bool{}}
}

func (j *slowJournal) Record(ctx context.Context, e *state.Entry) error {
	if err := j.inner.Record(ctx, e); err != nil {
		return err
	}
	r := e.New
	if r == nil {
		r = e.Old
	}
	if (e.Kind != state.End && e.Kind != state.Write) || r == nil || state.IsProviderType(r.Type) {
		return nil
	}
	j.waiting <- r.URN.Name()
	<-j.gate
	j.mu.Lock()
	j.durable[r.URN.Name()] = true
	j.mu.Unlock()
	return nil
}

func (j *slowJournal) isDurable(name string) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.durable[name]
}

// TestStepsWaitingOnDurabilityFreeTheirSlots runs creates against a
// journal whose syncs hang: every independent create reaches the wait
// for its entry to be durable, more than the parallelism, while provider
// calls in flight never exceed the parallelism, and a dependent is not
// created until what it depends on is durable. Before the waits gave
// their slots back, only `parallel` steps ever waited and the rest
// queued behind them.
func TestStepsWaitingOnDurabilityFreeTheirSlots(t *testing.T) {
	const parallel, independent = 2, 6
	h := newHarness(t)
	j := newSlowJournal(independent + 1)
	var inflight, most atomic.Int64
	var early []string // dependents created before what they depend on was durable
	var mu sync.Mutex
	create := h.fake.CreateF
	h.fake.CreateF = func(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		n := inflight.Add(1)
		defer inflight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if req.URN.Name() == "dependent" && !j.isDurable("thing0") {
			mu.Lock()
			early = append(early, req.URN.Name())
			mu.Unlock()
		}
		time.Sleep(time.Millisecond) // long enough for calls to overlap if they may
		return create(ctx, req)
	}
	var p prog
	for i := range independent {
		p = append(p, spec{name: fmt.Sprintf("thing%d", i)})
	}
	p = append(p, spec{name: "dependent", deps: []string{"thing0"}})
	opts := h.options(j)
	opts.Parallel = parallel
	done := make(chan error, 1)
	go func() {
		_, err := engine.Update(context.Background(), p, nil, opts)
		done <- err
	}()
	waited := j.awaitWaiting(independent)
	close(j.gate)
	if err := <-done; err != nil {
		t.Fatalf("update: %v", err)
	}
	if waited < independent {
		t.Errorf("%d steps waited on durability at once, want all %d independent ones (parallelism %d)", waited, independent, parallel)
	}
	if m := most.Load(); m > parallel {
		t.Errorf("%d provider calls were in flight at once, more than the parallelism %d", m, parallel)
	}
	if diff := cmp.Diff([]string(nil), early); diff != "" {
		t.Errorf("dependents created before the entry of what they depend on was durable (-want +got):\n%s", diff)
	}
	if got := len(h.world.ids()); got != independent+1 {
		t.Errorf("%d things created, want %d", got, independent+1)
	}
}

// awaitWaiting waits until n records wait on the gate at once, or until
// it is plain they never will (none more arrives within a few seconds),
// and says how many did.
func (j *slowJournal) awaitWaiting(n int) int {
	for got := 0; ; got++ {
		if got == n {
			return got
		}
		select {
		case <-j.waiting:
		case <-time.After(5 * time.Second):
			return got
		}
	}
}
