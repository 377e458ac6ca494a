package engine_test

import (
	"context"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
)

// TestRefreshOfADeletedDependencyKeepsTheStateWhole: a resource deleted
// outside plinth that others depend on stays recorded as missing, so the
// state a file-backed refresh saves passes Verify; the next up creates it
// again and updates its dependents.
func TestRefreshOfADeletedDependencyKeepsTheStateWhole(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t)
	h.mustUp(chain(1))
	a := h.get("a")
	if err := h.world.remove(a.URN, a.ID); err != nil {
		t.Fatal(err)
	}
	backend := file.New(t.TempDir())
	seed, err := state.Open(ctx, backend, "dev", state.OpenOptions{Command: "seed"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range h.snap.Resources {
		if err := seed.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpImport, New: r}); err != nil {
			t.Fatal(err)
		}
	}
	if err := seed.Close(ctx); err != nil {
		t.Fatal(err)
	}

	s, err := state.Open(ctx, backend, "dev", state.OpenOptions{Command: "refresh", Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := engine.Refresh(ctx, s.Base(), h.options(s)); err != nil {
		t.Fatalf("refresh: %v", err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	snap, err := state.Load(ctx, backend, "dev", state.OpenOptions{Verify: true})
	if err != nil {
		t.Fatalf("the state refresh saved is damaged: %v", err)
	}
	if err := snap.Verify(); err != nil {
		t.Fatalf("the state refresh saved fails Verify: %v", err)
	}
	if r := snap.Find(a.URN); r == nil || !r.Missing {
		t.Fatalf("a after refresh: %+v, want it kept and marked missing", r)
	}

	h.snap = snap
	before := len(h.world.history())
	res := h.mustUp(chain(1))
	diffStrings(t, "provider calls of the next up", []string{"create a", "update b"}, h.world.history()[before:])
	if res.Counts[engine.OpCreate] != 1 || res.Counts[engine.OpUpdate] != 1 {
		t.Errorf("counts %v, want a created and b updated", res.Counts)
	}
	diffStrings(t, "state", []string{"a", "b", "c"}, h.names())
	if h.get("a").Missing {
		t.Errorf("a is still marked missing after it was created again")
	}
	if res := h.mustUp(chain(1)); res.HasChanges() {
		t.Errorf("the up after that changes %v", res.Counts)
	}
}

// TestMissingResourceLeftOutIsDropped: a missing resource the program no
// longer declares is dropped from the state with no provider call.
func TestMissingResourceLeftOutIsDropped(t *testing.T) {
	h := newHarness(t)
	h.mustUp(chain(1))
	a := h.get("a")
	if err := h.world.remove(a.URN, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := h.refresh(); err != nil {
		t.Fatal(err)
	}
	before := len(h.world.history())
	h.mustUp(prog{})
	diffStrings(t, "provider calls", []string{"delete c", "delete b"}, h.world.history()[before:])
	diffStrings(t, "state", nil, h.names())
}
