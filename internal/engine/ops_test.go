package engine_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func (h *harness) refresh() (*engine.Result, error) {
	h.t.Helper()
	return h.run(func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
		return engine.Refresh(ctx, base, o)
	})
}

func TestRefreshFindsDriftAndDeletion(t *testing.T) {
	h := newHarness(t)
	h.mustUp(prog{{name: "a", inputs: map[string]any{"x": 1}}, {name: "b"}, {name: "c"}})
	h.world.update("urn:pulumi:dev::proj::pkg:index:Thing::a", h.get("a").ID, resource.ObjectFromGo(map[string]any{"x": 9}))
	if err := h.world.remove("urn:pulumi:dev::proj::pkg:index:Thing::b", h.get("b").ID); err != nil {
		t.Fatal(err)
	}
	res, err := h.refresh()
	if err != nil {
		t.Fatal(err)
	}
	if res.Counts[engine.OpUpdate] != 1 || res.Counts[engine.OpDelete] != 1 || res.Counts[engine.OpSame] != 1 {
		t.Errorf("counts %v: want a drifted (update), b gone (delete), c same", res.Counts)
	}
	diffStrings(t, "state", []string{"a", "c"}, h.names())
	if got := h.get("a").Outputs["x"].Number(); got != 9 {
		t.Errorf("a.x = %v after refresh, want the drifted 9", got)
	}
	var drift resource.DetailedDiff
	for _, e := range h.events {
		if e.Kind == engine.EventStepDone && e.URN.Name() == "a" {
			drift = e.Diff
		}
	}
	diffStrings(t, "drift of a", []string{"x"}, drift.Paths())
	res = h.mustUp(prog{{name: "a", inputs: map[string]any{"x": 1}}, {name: "b"}, {name: "c"}})
	if res.Counts[engine.OpUpdate] != 1 || res.Counts[engine.OpCreate] != 1 {
		t.Errorf("up after refresh: counts %v, want a restored (update) and b recreated", res.Counts)
	}
}

func TestImport(t *testing.T) {
	h := newHarness(t)
	id := h.world.create("urn:pulumi:dev::proj::pkg:index:Thing::ext", resource.ObjectFromGo(map[string]any{"x": 1}))
	imp := func(x int) prog {
		return prog{{name: "a", inputs: map[string]any{"x": x}, opt: func(r *engine.Registration) { r.ImportID = id }}}
	}
	_, err := h.up(imp(2))
	var mismatch *engine.ImportMismatchError
	if !errors.As(err, &mismatch) || strings.Join(mismatch.Paths, ",") != "x" {
		t.Fatalf("import with different inputs: got %v, want a mismatch naming x", err)
	}
	diffStrings(t, "state after a failed import", nil, h.names())

	res := h.mustUp(imp(1))
	if res.Counts[engine.OpImport] != 1 || h.get("a").ID != id {
		t.Errorf("counts %v, state %v: want a imported with ID %s", res.Counts, h.names(), id)
	}
	res = h.mustUp(imp(1))
	if res.HasChanges() {
		t.Errorf("after the import the program is up to date, but: %v", res.Counts)
	}
	diffStrings(t, "history: nothing created", []string{"create ext"}, h.world.history())
}

func TestImportOperation(t *testing.T) {
	h := newHarness(t)
	h.mustUp(prog{{name: "keep"}})
	id := h.world.create("urn:pulumi:dev::proj::pkg:index:Thing::ext", resource.ObjectFromGo(map[string]any{"x": 5}))
	res, err := h.run(func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
		return engine.Import(ctx, base, o, engine.ImportRequest{Type: "pkg:index:Thing", Name: "adopted", ID: id})
	})
	if err != nil || res.Counts[engine.OpImport] != 1 {
		t.Fatalf("import: %v, counts %v", err, res.Counts)
	}
	diffStrings(t, "state keeps the rest", []string{"adopted", "keep"}, h.names())
	if got := h.get("adopted").Inputs["x"].Number(); got != 5 {
		t.Errorf("adopted inputs %v, want those read (x=5)", h.get("adopted").Inputs)
	}
	_, err = h.run(func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
		return engine.Import(ctx, base, o, engine.ImportRequest{Type: "pkg:index:Thing", Name: "ghost", ID: "nope"})
	})
	if err == nil || !strings.Contains(err.Error(), `no resource with ID "nope"`) {
		t.Errorf("importing a missing ID: %v", err)
	}
}

func TestTargetsAndExcludes(t *testing.T) {
	p := prog{{name: "a"}, {name: "b"}, {name: "c", deps: []string{"a"}}}
	h := newHarness(t)
	h.opts = func(o *engine.Options) { o.Targets = []resource.URN{"urn:pulumi:dev::proj::pkg:index:Thing::c"} }
	h.mustUp(p)
	diffStrings(t, "targeting c creates c and what it depends on", []string{"a", "c"}, h.names())

	h.opts = func(o *engine.Options) { o.Excludes = []resource.URN{"urn:pulumi:dev::proj::pkg:index:Thing::a"} }
	h.mustUp(prog{{name: "b"}, {name: "c"}})
	diffStrings(t, "excluding a keeps it though unregistered", []string{"a", "b", "c"}, h.names())

	h.opts = func(o *engine.Options) { o.Targets = []resource.URN{"urn:pulumi:dev::proj::pkg:index:Thing::b"} }
	_, err := h.run(func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
		return engine.Destroy(ctx, base, o)
	})
	if err != nil {
		t.Fatal(err)
	}
	diffStrings(t, "destroying b only", []string{"a", "c"}, h.names())

	h.opts = nil
	h.mustUp(prog{{name: "a"}, {name: "c", deps: []string{"a"}}})
	h.opts = func(o *engine.Options) { o.Targets = []resource.URN{"urn:pulumi:dev::proj::pkg:index:Thing::a"} }
	_, err = h.run(func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
		return engine.Destroy(ctx, base, o)
	})
	if err == nil || !strings.Contains(err.Error(), "depends on") {
		t.Errorf("destroying a but not its dependent c: got %v, want a refusal", err)
	}
}

func TestDestroy(t *testing.T) {
	h := newHarness(t)
	h.mustUp(chain(1))
	res, err := h.run(func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
		return engine.Destroy(ctx, base, o)
	})
	if err != nil || res.Counts[engine.OpDelete] != 3 {
		t.Fatalf("destroy: %v, counts %v", err, res.Counts)
	}
	diffStrings(t, "history", []string{"create a", "create b", "create c", "delete c", "delete b", "delete a"}, h.world.history())
	if len(h.snap.Resources) != 0 {
		t.Errorf("state after destroy holds %d resources", len(h.snap.Resources))
	}
}

func TestCancelFinishesStepsInFlight(t *testing.T) {
	h := newHarness(t)
	entered := make(chan struct{}, 10)
	release := make(chan struct{})
	var signals atomic.Int32
	create := h.fake.CreateF
	h.fake.CreateF = func(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		entered <- struct{}{}
		<-release
		return create(ctx, req)
	}
	h.fake.SignalCancellationF = func(context.Context) error { signals.Add(1); return nil }
	ctx, cancel := context.WithCancel(context.Background())
	j := state.NewMemoryJournal(h.snap, state.VerifyEach(t))
	opts := h.options(j)
	opts.Parallel = 1
	done := make(chan error)
	go func() {
		_, err := engine.Update(ctx, chain(1), h.snap, opts)
		done <- err
	}()
	<-entered // a's create is in flight
	cancel()
	for signals.Load() == 0 {
		time.Sleep(time.Millisecond) // providers are signalled while the step is still in flight
	}
	close(release)
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("got %v, want a cancellation error", err)
	}
	h.snap = j.Snapshot()
	diffStrings(t, "state: the create in flight was recorded, nothing after it started", []string{"a"}, h.names())
	diffStrings(t, "world", []string{"a-1"}, h.world.ids())
	if signals.Load() == 0 {
		t.Errorf("providers were not signalled")
	}
	if len(j.Pending()) != 0 {
		t.Errorf("pending after a graceful cancel: %v", j.Pending())
	}
}

func TestGracefulCancelWithHardCancelDoesNotSignal(t *testing.T) {
	h := newHarness(t)
	entered := make(chan struct{}, 10)
	release := make(chan struct{})
	var signals atomic.Int32
	create := h.fake.CreateF
	h.fake.CreateF = func(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		entered <- struct{}{}
		<-release
		return create(ctx, req)
	}
	h.fake.SignalCancellationF = func(context.Context) error { signals.Add(1); return nil }
	ctx, cancel := context.WithCancel(context.Background())
	hard, hardCancel := context.WithCancel(context.Background())
	defer hardCancel()
	j := state.NewMemoryJournal(h.snap, state.VerifyEach(t))
	opts := h.options(j)
	opts.Parallel, opts.HardCancel = 1, hard
	done := make(chan error)
	go func() {
		_, err := engine.Update(ctx, chain(1), h.snap, opts)
		done <- err
	}()
	<-entered
	cancel()
	time.Sleep(20 * time.Millisecond)
	if n := signals.Load(); n != 0 {
		t.Errorf("a graceful cancel signalled the providers %d times; only the hard cancel should", n)
	}
	hardCancel()
	for signals.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	close(release)
	if err := <-done; err == nil {
		t.Fatal("want a cancellation error")
	}
}
