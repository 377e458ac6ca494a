package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
)

// replaceOnKey makes the fake's Diff demand replacement when key changes,
// and delete-before-replace if dbr.
func replaceOnKey(f *provider.Fake, key string, dbr bool) {
	f.DiffF = func(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
		resp := provider.DiffResponse{Changes: provider.DiffUnknown}
		if !req.OldInputs[key].Equal(req.News[key]) {
			resp = provider.DiffResponse{Changes: provider.DiffSome, ReplaceKeys: []string{key}, DeleteBeforeReplace: dbr}
		}
		return resp, nil
	}
}

func chain(k int) prog {
	return prog{
		{name: "a", inputs: map[string]any{"k": k}},
		{name: "b", deps: []string{"a"}, from: map[string]string{"y": "a.out"}},
		{name: "c", deps: []string{"b"}, from: map[string]string{"y": "b.out"}},
	}
}

func TestReplaceCreateBeforeDelete(t *testing.T) {
	h := newHarness(t)
	replaceOnKey(h.fake, "k", false)
	h.mustUp(chain(1))
	oldID := h.get("a").ID
	res := h.mustUp(chain(2))
	if res.Counts[engine.OpReplace] != 1 {
		t.Errorf("counts %v, want one replace", res.Counts)
	}
	diffStrings(t, "history", []string{"create a", "create b", "create c", "create a", "update b", "delete a"}, h.world.history())
	if h.get("a").ID == oldID {
		t.Errorf("a kept its old ID %s after a replace", oldID)
	}
	diffStrings(t, "state", []string{"a", "b", "c"}, h.names())
	diffStrings(t, "world", []string{"a-4", "b-2", "c-3"}, h.world.ids())
}

func TestReplaceDeleteBeforeReplaceTakesDependents(t *testing.T) {
	h := newHarness(t)
	replaceOnKey(h.fake, "k", true)
	h.mustUp(chain(1))
	res := h.mustUp(chain(2))
	diffStrings(t, "history", []string{"create a", "create b", "create c", "delete c", "delete b", "delete a", "create a", "create b", "create c"}, h.world.history())
	if res.Counts[engine.OpReplace] != 3 || res.Counts[engine.OpDelete] != 0 {
		t.Errorf("counts %v, want three replaces and no plain deletes", res.Counts)
	}
	diffStrings(t, "ops", []string{"create-replacement a", "create-replacement b", "create-replacement c", "delete-replaced a", "delete-replaced b", "delete-replaced c"}, h.ops())
	diffStrings(t, "world", []string{"a-4", "b-5", "c-6"}, h.world.ids())
}

func TestDeleteBeforeReplaceOption(t *testing.T) {
	h := newHarness(t)
	replaceOnKey(h.fake, "k", false)
	dbr := func(r *engine.Registration) { r.DeleteBeforeReplace = true }
	h.mustUp(prog{{name: "a", inputs: map[string]any{"k": 1}, opt: dbr}})
	h.mustUp(prog{{name: "a", inputs: map[string]any{"k": 2}, opt: dbr}})
	diffStrings(t, "history", []string{"create a", "delete a", "create a"}, h.world.history())
}

func TestDeleteUnregisteredDependentsFirst(t *testing.T) {
	h := newHarness(t)
	h.mustUp(chain(1))
	h.mustUp(prog{{name: "other"}})
	diffStrings(t, "history", []string{"create a", "create b", "create c", "create other", "delete c", "delete b", "delete a"}, h.world.history())
	diffStrings(t, "state", []string{"other"}, h.names())
}

func TestIndependentDeletesRunInParallel(t *testing.T) {
	h := newHarness(t)
	var many prog
	for _, n := range []string{"a", "b", "c", "d"} {
		many = append(many, spec{name: n})
	}
	h.mustUp(many)
	started := make(chan string, 4)
	release := make(chan struct{})
	del := h.fake.DeleteF
	h.fake.DeleteF = func(ctx context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
		started <- req.URN.Name()
		<-release
		return del(ctx, req)
	}
	done := make(chan error)
	go func() { _, err := h.up(prog{}); done <- err }()
	for range 4 {
		<-started // all four deletes are in flight at once
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	diffStrings(t, "world", nil, h.world.ids())
}

func TestProtectRefusesDeleteAndReplace(t *testing.T) {
	h := newHarness(t)
	replaceOnKey(h.fake, "k", false)
	protect := func(r *engine.Registration) { r.Protect = true }
	h.mustUp(prog{{name: "a", inputs: map[string]any{"k": 1}, opt: protect}})

	_, err := h.up(prog{{name: "a", inputs: map[string]any{"k": 2}, opt: protect}})
	var pe *engine.ProtectedError
	if !errors.As(err, &pe) || pe.Action != "replace" {
		t.Fatalf("replacing a protected resource: got %v, want a ProtectedError for replace", err)
	}
	_, err = h.up(prog{})
	if !errors.As(err, &pe) || pe.Action != "delete" {
		t.Fatalf("deleting a protected resource: got %v, want a ProtectedError for delete", err)
	}
	diffStrings(t, "state", []string{"a"}, h.names())
	diffStrings(t, "world", []string{"a-1"}, h.world.ids())

	h.mustUp(prog{{name: "a", inputs: map[string]any{"k": 1}}}) // unprotect
	h.mustUp(prog{})
	diffStrings(t, "world after unprotecting", nil, h.world.ids())
}

func TestIgnoreChanges(t *testing.T) {
	h := newHarness(t)
	ignore := func(r *engine.Registration) { r.IgnoreChanges = []string{"x", "tags.keep"} }
	h.mustUp(prog{{name: "a", inputs: map[string]any{"x": 1, "y": 1, "tags": map[string]any{"keep": "a", "other": "a"}}, opt: ignore}})
	h.mustUp(prog{{name: "a", inputs: map[string]any{"x": 2, "y": 2, "tags": map[string]any{"keep": "b", "other": "b"}}, opt: ignore}})
	a := h.get("a")
	if a.Inputs["x"].Number() != 1 || a.Inputs["y"].Number() != 2 {
		t.Errorf("inputs %v: want the ignored x kept at 1 and y updated to 2", a.Inputs)
	}
	tags := a.Inputs["tags"].Object()
	if tags["keep"].Str() != "a" || tags["other"].Str() != "b" {
		t.Errorf("tags %v: want keep=a (ignored) and other=b", tags)
	}
	res := h.mustUp(prog{{name: "a", inputs: map[string]any{"x": 3, "y": 2, "tags": map[string]any{"keep": "c", "other": "b"}}, opt: ignore}})
	if res.HasChanges() {
		t.Errorf("changing only ignored properties changed something: %v", res.Counts)
	}
}

func TestReplaceOnChanges(t *testing.T) {
	h := newHarness(t)
	roc := func(r *engine.Registration) { r.ReplaceOnChanges = []string{"x"} }
	h.mustUp(prog{{name: "a", inputs: map[string]any{"x": 1, "y": 1}, opt: roc}})
	res := h.mustUp(prog{{name: "a", inputs: map[string]any{"x": 1, "y": 2}, opt: roc}})
	if res.Counts[engine.OpUpdate] != 1 {
		t.Errorf("changing y: counts %v, want an update", res.Counts)
	}
	res = h.mustUp(prog{{name: "a", inputs: map[string]any{"x": 2, "y": 2}, opt: roc}})
	if res.Counts[engine.OpReplace] != 1 {
		t.Errorf("changing x: counts %v, want a replace", res.Counts)
	}
}

func TestRetainOnDelete(t *testing.T) {
	h := newHarness(t)
	h.mustUp(prog{{name: "a", opt: func(r *engine.Registration) { r.RetainOnDelete = true }}})
	res := h.mustUp(prog{})
	if res.Counts[engine.OpDiscard] != 1 {
		t.Errorf("counts %v, want one discard", res.Counts)
	}
	if res.Retained != 1 {
		t.Errorf("retained %d, want 1 (the discard removed a retainOnDelete resource)", res.Retained)
	}
	diffStrings(t, "state", nil, h.names())
	diffStrings(t, "world keeps it", []string{"a-1"}, h.world.ids())
}
