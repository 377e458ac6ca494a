package engine_test

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
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

// hashIDs makes the harness's fake behave like Terraform's local_file:
// the ID is the content (its hash, in local_file), a file is kept by its
// "filename", a changed filename needs a new file (the Diff says so), and
// Delete removes the file its recorded state names. deleted collects the
// filenames Delete was given.
func hashIDs(h *harness, deleted *[]string) {
	h.fake.CreateF = func(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		if req.Preview {
			return provider.CreateResponse{Outputs: req.Inputs}, nil
		}
		h.world.mu.Lock()
		defer h.world.mu.Unlock()
		h.world.things[req.Inputs["filename"].Str()] = req.Inputs
		h.world.log = append(h.world.log, "create "+req.URN.Name())
		return provider.CreateResponse{ID: "sha-" + req.Inputs["content"].Str(), Outputs: req.Inputs}, nil
	}
	h.fake.DiffF = func(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
		var replace []string
		for _, k := range []string{"filename", "content"} {
			if !req.OldOutputs[k].Equal(req.News[k]) {
				replace = append(replace, k)
			}
		}
		if len(replace) == 0 { // anything else is updated in place: the engine diffs
			return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
		}
		return provider.DiffResponse{Changes: provider.DiffSome, ReplaceKeys: replace}, nil
	}
	h.fake.DeleteF = func(_ context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
		h.world.mu.Lock()
		defer h.world.mu.Unlock()
		name := req.Outputs["filename"].Str()
		delete(h.world.things, name)
		h.world.log = append(h.world.log, "delete "+req.URN.Name())
		*deleted = append(*deleted, name)
		return provider.DeleteResponse{}, nil
	}
}

// TestSameIDDifferentObjectIsDeleted: a replacement or a renamed resource
// that comes back with the old ID is not the old object when its provider
// says the change needs a new one (a local_file whose filename changes and
// content does not keeps its ID, the content's hash): the old object is
// deleted, with its own state, and nothing is left untracked. When the
// provider finds no such change (a replacement the program forced, a
// rename), it is the same object and is not deleted.
func TestSameIDDifferentObjectIsDeleted(t *testing.T) {
	file := func(name, filename string, opt func(*engine.Registration)) spec {
		return spec{name: name, inputs: map[string]any{"filename": filename, "content": "same"}, opt: opt}
	}
	// forced: the program makes a change the provider would update in
	// place replace the resource (replaceOnChanges).
	forced := func(r *engine.Registration) {
		r.Inputs["mode"] = resource.NewString("0600")
		r.ReplaceOnChanges = []string{"mode"}
	}
	for name, tc := range map[string]struct {
		before, after prog
		deleted       []string // filenames Delete was given
		world, state  []string
		discarded     bool // the old record dropped from the state only, with a warning
	}{
		"replacement to a new filename": {
			before: prog{file("f", "out/a.txt", nil)}, after: prog{file("f", "out/b.txt", nil)},
			deleted: []string{"out/a.txt"}, world: []string{"out/b.txt"}, state: []string{"f"},
		},
		"renamed, with a new filename": {
			before: prog{file("f", "out/a.txt", nil)}, after: prog{file("g", "out/b.txt", nil)},
			deleted: []string{"out/a.txt"}, world: []string{"out/b.txt"}, state: []string{"g"},
		},
		"forced replacement, same file": {
			before: prog{file("f", "out/a.txt", func(r *engine.Registration) { r.ReplaceOnChanges = []string{"mode"} })},
			after:  prog{file("f", "out/a.txt", forced)},
			world:  []string{"out/a.txt"}, state: []string{"f"}, discarded: true,
		},
		"renamed, same file": {
			before: prog{file("f", "out/a.txt", nil)}, after: prog{file("g", "out/a.txt", nil)},
			world: []string{"out/a.txt"}, state: []string{"g"}, discarded: true,
		},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			var deleted []string
			hashIDs(h, &deleted)
			h.mustUp(tc.before)
			h.mustUp(tc.after)
			diffStrings(t, "filenames Delete was given", tc.deleted, deleted)
			diffStrings(t, "world", tc.world, h.world.ids())
			diffStrings(t, "state", tc.state, h.names())
			discarded := false
			for _, e := range h.events {
				discarded = discarded || e.Kind == engine.EventStepDone && e.Op == engine.OpDiscard
			}
			if discarded != tc.discarded {
				t.Errorf("the old record discarded from the state only: %v, want %v", discarded, tc.discarded)
			}
			if res := h.mustUp(tc.after); res.HasChanges() {
				t.Errorf("the next up changes %v, want nothing", res.Counts)
			}
		})
	}
}

// TestSameIDUndecidedIsKept: when the provider's Diff fails, plinth can
// tell neither that the old object is the live one nor that it is not: it
// neither deletes it nor drops its record, and says so; the next run
// decides.
func TestSameIDUndecidedIsKept(t *testing.T) {
	h := newHarness(t)
	var deleted []string
	hashIDs(h, &deleted)
	h.mustUp(prog{{name: "f", inputs: map[string]any{"filename": "out/a.txt", "content": "same"}}})
	diff := h.fake.DiffF
	h.fake.DiffF = func(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
		if req.URN.Name() == "g" {
			return provider.DiffResponse{}, errors.New("provider unavailable")
		}
		return diff(ctx, req)
	}
	after := prog{{name: "g", inputs: map[string]any{"filename": "out/b.txt", "content": "same"}}}
	_, err := h.up(after)
	if err == nil || !strings.Contains(err.Error(), "provider unavailable") || !strings.Contains(err.Error(), "neither deleted nor dropped") {
		t.Errorf("up: %v, want the failed Diff and what plinth did", err)
	}
	diffStrings(t, "filenames Delete was given", nil, deleted)
	diffStrings(t, "state", []string{"f", "g"}, h.names())
	h.fake.DiffF = diff
	h.mustUp(after)
	diffStrings(t, "filenames Delete was given by the next run", []string{"out/a.txt"}, deleted)
	diffStrings(t, "state after the next run", []string{"g"}, h.names())
}
