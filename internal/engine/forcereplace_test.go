package engine_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// replaceReasons lists "op name reason" for each finished step that
// carries a replace reason.
func (h *harness) replaceReasons() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		if e.Kind == engine.EventStepDone && e.ReplaceReason != "" {
			out = append(out, string(e.Op)+" "+e.URN.Name()+" "+string(e.ReplaceReason))
		}
	}
	return out
}

func one(opt func(*engine.Registration)) prog {
	return prog{{name: "a", inputs: map[string]any{"k": 1}, opt: opt}}
}

func TestForcedReplacement(t *testing.T) {
	cases := map[string]struct {
		setup  func(h *harness)
		opt    func(*engine.Registration)
		reason string
	}{
		"tainted": {setup: func(h *harness) { h.get("a").Tainted = true }, reason: "tainted"},
		"replace option": {setup: func(h *harness) {
			h.opts = func(o *engine.Options) { o.Replace = []resource.URN{h.get("a").URN} }
		}, reason: "requested"},
		"force replace registration": {opt: func(r *engine.Registration) { r.ForceReplace = true }, reason: "triggered"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.mustUp(one(nil))
			oldID := h.get("a").ID
			if tc.setup != nil {
				tc.setup(h)
			}
			res, err := h.preview(one(tc.opt))
			if err != nil {
				t.Fatal(err)
			}
			if res.Counts[engine.OpReplace] != 1 {
				t.Errorf("preview counts %v, want one replace", res.Counts)
			}
			diffStrings(t, "preview reasons", []string{"create-replacement a " + tc.reason}, h.replaceReasons())
			h.mustUp(one(tc.opt))
			diffStrings(t, "history", []string{"create a", "create a", "delete a"}, h.world.history())
			if a := h.get("a"); a.ID == oldID || a.Tainted {
				t.Errorf("after up: id %s (was %s), tainted %v; want a new, untainted resource", a.ID, oldID, a.Tainted)
			}
		})
	}
}

// A Terraform provider asks to delete first on every replacement;
// CreateBeforeDestroy overrides it, DeleteBeforeReplace overrides that.
func TestCreateBeforeDestroyOverridesProvider(t *testing.T) {
	cases := map[string]struct {
		opt  func(*engine.Registration)
		want []string
	}{
		"provider order":        {nil, []string{"create a", "delete a", "create a"}},
		"create_before_destroy": {func(r *engine.Registration) { r.CreateBeforeDestroy = true }, []string{"create a", "create a", "delete a"}},
		"both": {func(r *engine.Registration) { r.CreateBeforeDestroy, r.DeleteBeforeReplace = true, true },
			[]string{"create a", "delete a", "create a"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			replaceOnKey(h.fake, "k", true)
			h.mustUp(prog{{name: "a", inputs: map[string]any{"k": 1}, opt: tc.opt}})
			h.mustUp(prog{{name: "a", inputs: map[string]any{"k": 2}, opt: tc.opt}})
			diffStrings(t, "history", tc.want, h.world.history())
		})
	}
}

// registeredOps runs a one-resource program and returns what the program
// learnt from its registration.
func registeredOps(t *testing.T, h *harness, inputs map[string]any, preview bool) (engine.StepOp, []string) {
	t.Helper()
	var got engine.Registered
	p := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		var err error
		got, err = engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Thing", Name: "a", Custom: true, Inputs: resource.ObjectFromGo(inputs)})
		return err
	})
	run := h.up
	if preview {
		run = h.preview
	}
	if _, err := run(p); err != nil {
		t.Fatal(err)
	}
	return got.Op, got.Changed
}

func TestRegisteredCarriesStepOp(t *testing.T) {
	h := newHarness(t)
	replaceOnKey(h.fake, "k", false)
	type outcome struct {
		Op      engine.StepOp
		Changed []string
	}
	steps := []struct {
		inputs  map[string]any
		preview bool
		want    outcome
	}{
		{map[string]any{"k": 1}, true, outcome{engine.OpCreate, nil}},
		{map[string]any{"k": 1}, false, outcome{engine.OpCreate, nil}},
		{map[string]any{"k": 1}, false, outcome{engine.OpSame, nil}},
		{map[string]any{"k": 1, "x": 1}, true, outcome{engine.OpUpdate, []string{"x"}}},
		{map[string]any{"k": 1, "x": 1}, false, outcome{engine.OpUpdate, []string{"x"}}},
		{map[string]any{"k": 2, "x": 1}, true, outcome{engine.OpReplace, []string{"k"}}},
		{map[string]any{"k": 2, "x": 1}, false, outcome{engine.OpReplace, []string{"k"}}},
	}
	for i, s := range steps {
		op, changed := registeredOps(t, h, s.inputs, s.preview)
		if d := cmp.Diff(s.want, outcome{op, changed}); d != "" {
			t.Errorf("step %d (-want +got):\n%s", i, d)
		}
	}
}
