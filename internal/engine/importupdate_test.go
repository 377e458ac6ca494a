package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestImportUpdates checks Terraform's import (Registration.ImportUpdates):
// inputs that differ from the resource import it as read and then update
// it, in the preview and the update; a difference that would replace it
// is refused, and nothing is recorded.
func TestImportUpdates(t *testing.T) {
	const ext = "urn:pulumi:dev::proj::pkg:index:Thing::ext"
	imp := func(id string, x, k int) prog {
		return prog{{name: "a", inputs: map[string]any{"x": x, "k": k}, opt: func(r *engine.Registration) {
			r.ImportID, r.ImportUpdates = id, true
		}}}
	}
	t.Run("update", func(t *testing.T) {
		h := newHarness(t)
		id := h.world.create(ext, resource.ObjectFromGo(map[string]any{"x": 1, "k": 1}))
		res, err := h.preview(imp(id, 2, 1))
		if err != nil || res.Counts[engine.OpImport] != 1 || res.Counts[engine.OpUpdate] != 1 {
			t.Fatalf("preview: %v, counts %v: want one import and one update", err, res.Counts)
		}
		diffStrings(t, "state after the preview", nil, h.names())
		res = h.mustUp(imp(id, 2, 1))
		if res.Counts[engine.OpImport] != 1 || res.Counts[engine.OpUpdate] != 1 {
			t.Errorf("up: counts %v, want one import and one update", res.Counts)
		}
		if a := h.get("a"); a.ID != id || a.Inputs["x"].Number() != 2 || a.Outputs["x"].Number() != 2 {
			t.Errorf("a is %s with inputs %v, outputs %v: want %s updated to x=2", a.ID, a.Inputs, a.Outputs, id)
		}
		if res := h.mustUp(imp(id, 2, 1)); res.HasChanges() {
			t.Errorf("after the import and update the program is up to date, but: %v", res.Counts)
		}
		diffStrings(t, "history: nothing created", []string{"create ext", "update a"}, h.world.history())
	})
	t.Run("replacement refused", func(t *testing.T) {
		h := newHarness(t)
		replaceOnKey(h.fake, "k", false)
		id := h.world.create(ext, resource.ObjectFromGo(map[string]any{"x": 1, "k": 1}))
		_, err := h.up(imp(id, 2, 2))
		var mismatch *engine.ImportMismatchError
		if !errors.As(err, &mismatch) || !mismatch.Replace || !strings.Contains(err.Error(), "force its replacement: k") {
			t.Fatalf("import that would replace: got %v, want a mismatch naming k as forcing replacement", err)
		}
		diffStrings(t, "state after a refused import", nil, h.names())
	})
}
