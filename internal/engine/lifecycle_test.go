package engine_test

import (
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
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
