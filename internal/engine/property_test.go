package engine_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"pgregory.net/rapid"
)

// faults says which resources' provider calls fail in one run.
type faults struct {
	create, update, delete, partial, panics map[string]bool
}

func drawFaults(t *rapid.T, names []string) faults {
	f := faults{map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}}
	for _, n := range names {
		switch rapid.IntRange(0, 12).Draw(t, "fault-"+n) {
		case 0:
			f.create[n] = true
		case 1:
			f.update[n] = true
		case 2:
			f.delete[n] = true
		case 3:
			f.partial[n] = true
		case 4:
			f.panics[n] = true
		}
	}
	return f
}

// faultyFake wraps the world's fake with the run's faults.
func faultyFake(w *world, f faults) *provider.Fake {
	base := fakeFor(w)
	replaceOnKey(base, "k", false)
	fake := &provider.Fake{DiffF: base.DiffF, ReadF: base.ReadF}
	fake.CreateF = func(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		n := req.URN.Name()
		switch {
		case req.Preview:
		case f.create[n]:
			return provider.CreateResponse{}, errors.New("create failed")
		case f.panics[n]:
			panic("create panicked")
		case f.partial[n]:
			resp, _ := base.CreateF(ctx, req)
			return provider.CreateResponse{}, &provider.InitError{ID: resp.ID, Outputs: resp.Outputs, Reasons: []string{"init failed"}}
		}
		return base.CreateF(ctx, req)
	}
	fake.UpdateF = func(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
		if f.update[req.URN.Name()] && !req.Preview {
			return provider.UpdateResponse{}, errors.New("update failed")
		}
		return base.UpdateF(ctx, req)
	}
	fake.DeleteF = func(ctx context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
		if f.delete[req.URN.Name()] {
			return provider.DeleteResponse{}, errors.New("delete failed")
		}
		return base.DeleteF(ctx, req)
	}
	return fake
}

func drawProgram(t *rapid.T, run int) (prog, []string) {
	n := rapid.IntRange(0, 7).Draw(t, fmt.Sprintf("size-%d", run))
	var p prog
	var names []string
	for i := range n {
		name := fmt.Sprintf("r%d", rapid.IntRange(0, 9).Draw(t, fmt.Sprintf("name-%d-%d", run, i)))
		if contains(names, name) {
			continue
		}
		s := spec{name: name, inputs: map[string]any{
			"k": rapid.IntRange(0, 2).Draw(t, "k"),
			"x": rapid.IntRange(0, 2).Draw(t, "x"),
		}}
		for _, prev := range names {
			if rapid.Bool().Draw(t, "dep") {
				s.deps = append(s.deps, prev)
			}
		}
		if rapid.IntRange(0, 3).Draw(t, "dbr") == 0 {
			s.opt = func(r *engine.Registration) { r.DeleteBeforeReplace = true }
		}
		p = append(p, s)
		names = append(names, name)
	}
	return p, names
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestPropertyRunsLeaveIntegralStateMatchingTheWorld runs random programs
// against a provider with random failures, and checks after every run that
// the state is integral (and was after every journal write) and agrees
// with what the provider made: nothing made is missing from the state,
// nothing in the state is missing from the world.
func TestPropertyRunsLeaveIntegralStateMatchingTheWorld(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		w := newWorld()
		snap := &state.Snapshot{}
		for run := range rapid.IntRange(1, 5).Draw(rt, "runs") {
			p, names := drawProgram(rt, run)
			f := drawFaults(rt, names)
			src := &source{fakes: map[string]*provider.Fake{"pkg": faultyFake(w, f)}, instances: map[string]int{}}
			j := state.NewMemoryJournal(snap, state.VerifyEach(rt))
			opts := engine.Options{Stack: "dev", Project: "proj", Providers: src, Journal: j, Parallel: rapid.IntRange(1, 4).Draw(rt, "parallel")}
			var err error
			if rapid.IntRange(0, 5).Draw(rt, "destroy") == 0 {
				_, err = engine.Destroy(context.Background(), snap, opts)
			} else {
				_, err = engine.Update(context.Background(), p, snap, opts)
			}
			snap = j.Snapshot()
			if verr := snap.Verify(); verr != nil {
				rt.Fatalf("run %d (err %v): state fails verification: %v", run, err, verr)
			}
			agree(rt, w, snap)
		}
	})
}

func agree(t *rapid.T, w *world, snap *state.Snapshot) {
	inState := map[string]bool{}
	for _, r := range snap.Resources {
		if r.Custom && !state.IsProviderType(r.Type) {
			inState[r.ID] = true
			if _, ok := w.things[r.ID]; !ok {
				t.Fatalf("state holds %s (%s) but the world does not", r.URN, r.ID)
			}
		}
	}
	pending := map[string]bool{}
	for _, p := range snap.Pending {
		pending[p.Resource.URN.Name()] = true
	}
	for id := range w.things {
		if !inState[id] && !pending[id] {
			t.Fatalf("the world holds %s, which the state neither records nor reports pending (state %d resources, pending %v)", id, len(snap.Resources), snap.Pending)
		}
	}
}
