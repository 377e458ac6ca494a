package engine_test

import (
	"context"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestCreateUpdateSame(t *testing.T) {
	h := newHarness(t)
	res := h.mustUp(prog{{name: "a", inputs: map[string]any{"x": 1}}, {name: "b", deps: []string{"a"}, from: map[string]string{"y": "a.out"}}})
	diffStrings(t, "ops", []string{"create a", "create b"}, h.ops())
	if res.Counts[engine.OpCreate] != 2 {
		t.Errorf("counts %v, want 2 creates", res.Counts)
	}
	if got := h.get("b").Inputs["y"].Str(); got != "out-a-1" {
		t.Errorf("b.y = %q, want a's output out-a-1", got)
	}
	diffStrings(t, "world", []string{"a-1", "b-2"}, h.world.ids())

	h.mustUp(prog{{name: "a", inputs: map[string]any{"x": 2}}, {name: "b", deps: []string{"a"}, from: map[string]string{"y": "a.out"}}})
	diffStrings(t, "ops", []string{"update a"}, h.ops())
	if got := h.get("a").Inputs["x"].Number(); got != 2 {
		t.Errorf("a.x = %v after update, want 2", got)
	}

	res = h.mustUp(prog{{name: "a", inputs: map[string]any{"x": 2}}, {name: "b", deps: []string{"a"}, from: map[string]string{"y": "a.out"}}})
	if res.HasChanges() {
		t.Errorf("a rerun of the same program changed something: %v", res.Counts)
	}
}

func TestNoChangeUpdateWritesNothing(t *testing.T) {
	h := newHarness(t)
	p := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		r, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Thing", Name: "a", Custom: true})
		if err != nil {
			return err
		}
		mon.SetStackOutputs(resource.Object{"id": r.ID})
		return nil
	})
	h.mustUp(p)
	if got := h.snap.Outputs["id"].Str(); got != "a-1" {
		t.Fatalf("stack outputs %v", h.snap.Outputs)
	}
	j := state.NewMemoryJournal(h.snap, state.VerifyEach(t))
	if _, err := engine.Update(context.Background(), p, h.snap, h.options(j)); err != nil {
		t.Fatal(err)
	}
	if n := len(j.Entries()); n != 0 {
		t.Errorf("an update with nothing to do wrote %d journal entries, e.g. %s %s", n, j.Entries()[0].Kind, j.Entries()[0].Op)
	}
}
