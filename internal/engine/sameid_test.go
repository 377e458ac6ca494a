package engine_test

import (
	"context"
	"sort"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
)

// pathIDs makes the harness's fake behave like a file provider: the ID is
// the "path" input, so a replacement at the same path gets the old ID.
func pathIDs(h *harness) {
	h.fake.CreateF = func(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		if req.Preview {
			return provider.CreateResponse{Outputs: req.Inputs}, nil
		}
		id := req.Inputs["path"].Str()
		h.world.mu.Lock()
		h.world.things[id] = req.Inputs
		h.world.log = append(h.world.log, "create "+req.URN.Name())
		h.world.mu.Unlock()
		return provider.CreateResponse{ID: id, Outputs: req.Inputs}, nil
	}
}

// TestReplacementWithTheSameIDIsNotDeleted: a create-before-delete whose
// new resource comes back with the old ID, and a renamed resource whose
// ID is the old one's, must not delete what was just made.
func TestReplacementWithTheSameIDIsNotDeleted(t *testing.T) {
	roc := func(r *engine.Registration) { r.ReplaceOnChanges = []string{"content"} }
	cases := map[string]struct {
		before, after prog
		state         []string
	}{
		"replaceOnChanges": {
			before: prog{{name: "f", inputs: map[string]any{"path": "/tmp/x", "content": "1"}, opt: roc}},
			after:  prog{{name: "f", inputs: map[string]any{"path": "/tmp/x", "content": "2"}, opt: roc}},
			state:  []string{"f"},
		},
		"renamed key": {
			before: prog{{name: "f", inputs: map[string]any{"path": "/tmp/x"}}},
			after:  prog{{name: "g", inputs: map[string]any{"path": "/tmp/x"}}},
			state:  []string{"g"},
		},
		"renamed key and changed content": {
			before: prog{{name: "f", inputs: map[string]any{"path": "/tmp/x", "content": "1"}}},
			after:  prog{{name: "g", inputs: map[string]any{"path": "/tmp/x", "content": "2"}}},
			state:  []string{"g"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			pathIDs(h)
			h.mustUp(tc.before)
			h.mustUp(tc.after)
			diffStrings(t, "world: the file made by the replacement is still there", []string{"/tmp/x"}, h.world.ids())
			diffStrings(t, "state", tc.state, h.names())
			warned := false
			for _, e := range h.events {
				warned = warned || e.Kind == engine.EventDiagnostic && e.Severity == engine.SeverityWarning
			}
			if !warned {
				t.Errorf("no warning that the old record was dropped without a delete")
			}
			res := h.mustUp(tc.after)
			if res.HasChanges() {
				t.Errorf("the next up changes %v, want nothing", res.Counts)
			}
		})
	}
}

// TestEqualIDsOfDifferentThingsAreBothDeleted: two resources whose IDs are
// equal but whose inputs differ (a Terraform local_file's ID is the hash
// of its content, so two files with one content share it) are two things,
// and both are deleted.
func TestEqualIDsOfDifferentThingsAreBothDeleted(t *testing.T) {
	h := newHarness(t)
	h.fake.CreateF = func(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		if req.Preview {
			return provider.CreateResponse{Outputs: req.Inputs}, nil
		}
		h.world.mu.Lock()
		defer h.world.mu.Unlock()
		h.world.log = append(h.world.log, "create "+req.URN.Name())
		return provider.CreateResponse{ID: req.Inputs["content"].Str(), Outputs: req.Inputs}, nil
	}
	h.fake.DeleteF = func(_ context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
		h.world.mu.Lock()
		defer h.world.mu.Unlock()
		h.world.log = append(h.world.log, "delete "+req.URN.Name())
		return provider.DeleteResponse{}, nil
	}
	h.mustUp(prog{{name: "f", inputs: map[string]any{"path": "/f", "content": "same"}}, {name: "g", inputs: map[string]any{"path": "/g", "content": "same"}}})
	h.mustUp(prog{})
	diffStrings(t, "history", []string{"create f", "create g", "delete f", "delete g"}, sortedCopy(h.world.history()))
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
