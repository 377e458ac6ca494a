package engine_test

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// planRecorder makes a harness's fake return a plan from every previewed
// create and update ("create a", "update a"), and records the plan each
// real create and update is handed ("" for none) and the resources it
// diffs ("diff a").
type planRecorder struct {
	mu     sync.Mutex
	handed map[string]string
	diffs  []string
}

func recordPlans(h *harness) *planRecorder {
	r := &planRecorder{handed: map[string]string{}}
	create, update := h.fake.CreateF, h.fake.UpdateF
	h.fake.CreateF = func(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		resp, err := create(ctx, req)
		r.note(req.Preview, "create "+req.URN.Name(), req.Plan, &resp.Plan)
		return resp, err
	}
	h.fake.UpdateF = func(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
		resp, err := update(ctx, req)
		r.note(req.Preview, "update "+req.URN.Name(), req.Plan, &resp.Plan)
		return resp, err
	}
	h.fake.DiffF = func(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.diffs = append(r.diffs, "diff "+req.URN.Name())
		return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
	}
	return r
}

func (r *planRecorder) note(preview bool, step string, handed []byte, plan *[]byte) {
	if preview {
		*plan = []byte(step)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.handed[step] = string(handed)
}

// TestUpReusesThePreviewsPlans: with Options.Plans shared by a preview and
// the update after it, each create and update is handed the plan its
// preview's provider made, and the preview's Diff response is used
// instead of diffing again, unless the resource's inputs or its recorded
// state changed in between, or the preview did not know all its inputs.
func TestUpReusesThePreviewsPlans(t *testing.T) {
	one := prog{{name: "a", inputs: map[string]any{"x": 1}}}
	two := prog{{name: "a", inputs: map[string]any{"x": 2}}}
	three := prog{{name: "a", inputs: map[string]any{"x": 3}}}
	chain := prog{{name: "a", inputs: map[string]any{"x": 1}}, {name: "b", deps: []string{"a"}, from: map[string]string{"y": "a.out"}}}
	tests := map[string]struct {
		before   []prog // run before, without plans
		previews prog
		between  []prog // run between the preview and the update, without plans
		updates  prog
		noPlans  bool
		want     map[string]string
		diffs    []string // the update's Diff calls
	}{
		"create as previewed":             {previews: one, updates: one, want: map[string]string{"create a": "create a"}},
		"create without Plans":            {previews: one, updates: one, noPlans: true, want: map[string]string{"create a": ""}},
		"create of other inputs":          {previews: one, updates: two, want: map[string]string{"create a": ""}},
		"create from an unknown input":    {previews: chain, updates: chain, want: map[string]string{"create a": "create a", "create b": ""}},
		"update as previewed":             {before: []prog{one}, previews: two, updates: two, want: map[string]string{"update a": "update a"}},
		"update without Plans":            {before: []prog{one}, previews: two, updates: two, noPlans: true, want: map[string]string{"update a": ""}, diffs: []string{"diff a"}},
		"update of other inputs":          {before: []prog{one}, previews: two, updates: three, want: map[string]string{"update a": ""}, diffs: []string{"diff a"}},
		"update of a state changed since": {before: []prog{one}, previews: two, between: []prog{three}, updates: two, want: map[string]string{"update a": ""}, diffs: []string{"diff a"}},
		"no change as previewed":          {before: []prog{one}, previews: one, updates: one, want: map[string]string{}},
		"no change without Plans":         {before: []prog{one}, previews: one, updates: one, noPlans: true, want: map[string]string{}, diffs: []string{"diff a"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			for _, p := range tc.before {
				h.mustUp(p)
			}
			rec := recordPlans(h)
			plans := engine.NewPlans()
			withPlans := func(o *engine.Options) {
				if !tc.noPlans {
					o.Plans = plans
				}
			}
			h.opts = withPlans
			if _, err := h.preview(tc.previews); err != nil {
				t.Fatalf("preview: %v", err)
			}
			h.opts = nil
			for _, p := range tc.between {
				h.mustUp(p)
			}
			rec.handed, rec.diffs = map[string]string{}, nil
			h.opts = withPlans
			h.mustUp(tc.updates)
			if diff := cmp.Diff(tc.want, rec.handed); diff != "" {
				t.Errorf("plans handed to the update's provider calls (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.diffs, rec.diffs); diff != "" {
				t.Errorf("the update's Diff calls (-want +got):\n%s", diff)
			}
		})
	}
}

// recordChecks records the resources a harness's provider checks ("check
// a" afresh, "check a against olds" with its old inputs), after the fake's
// own Check.
func recordChecks(h *harness) *[]string {
	var mu sync.Mutex
	var checks []string
	check := h.fake.CheckF
	h.fake.CheckF = func(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
		mu.Lock()
		what := "check " + req.URN.Name()
		if req.Olds != nil {
			what += " against olds"
		}
		checks = append(checks, what)
		mu.Unlock()
		if check != nil {
			return check(ctx, req)
		}
		return provider.CheckResponse{Inputs: req.News}, nil
	}
	return &checks
}

// TestUpReusesThePreviewsChecks: with Options.Plans shared by a preview and
// the update after it, the update takes a resource's checked inputs from
// the preview instead of checking them again, unless its inputs, its
// recorded state or their secrecy changed in between, or the preview did
// not know all its inputs; a replacement's fresh Check is reused alike.
func TestUpReusesThePreviewsChecks(t *testing.T) {
	one := prog{{name: "a", inputs: map[string]any{"x": 1}}}
	two := prog{{name: "a", inputs: map[string]any{"x": 2}}}
	three := prog{{name: "a", inputs: map[string]any{"x": 3}}}
	secret := prog{{name: "a", inputs: map[string]any{"x": 1}, opt: func(r *engine.Registration) {
		r.Inputs["x"] = resource.MakeSecret(r.Inputs["x"])
	}}}
	chain := prog{{name: "a", inputs: map[string]any{"x": 1}}, {name: "b", deps: []string{"a"}, from: map[string]string{"y": "a.out"}}}
	replaceOnX := func(r *engine.Registration) { r.ReplaceOnChanges = []string{"x"} }
	replaceTwo := prog{{name: "a", inputs: map[string]any{"x": 2}, opt: replaceOnX}}
	tests := map[string]struct {
		before   []prog // run before, without plans
		previews prog
		between  []prog // run between the preview and the update, without plans
		updates  prog
		noPlans  bool
		checks   []string // the update's Check calls
	}{
		"create as previewed":             {previews: one, updates: one},
		"create without Plans":            {previews: one, updates: one, noPlans: true, checks: []string{"check a"}},
		"create of other inputs":          {previews: one, updates: two, checks: []string{"check a"}},
		"create of inputs made secret":    {previews: one, updates: secret, checks: []string{"check a"}},
		"create from an unknown input":    {previews: chain, updates: chain, checks: []string{"check b"}},
		"update as previewed":             {before: []prog{one}, previews: two, updates: two},
		"update of a state changed since": {before: []prog{one}, previews: two, between: []prog{three}, updates: two, checks: []string{"check a against olds"}},
		"no change as previewed":          {before: []prog{one}, previews: one, updates: one},
		"no change without Plans":         {before: []prog{one}, previews: one, updates: one, noPlans: true, checks: []string{"check a against olds"}},
		"replacement as previewed":        {before: []prog{one}, previews: replaceTwo, updates: replaceTwo},
		"replacement without Plans":       {before: []prog{one}, previews: replaceTwo, updates: replaceTwo, noPlans: true, checks: []string{"check a against olds", "check a"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			for _, p := range tc.before {
				h.mustUp(p)
			}
			checks := recordChecks(h)
			plans := engine.NewPlans()
			withPlans := func(o *engine.Options) {
				if !tc.noPlans {
					o.Plans = plans
				}
			}
			h.opts = withPlans
			if _, err := h.preview(tc.previews); err != nil {
				t.Fatalf("preview: %v", err)
			}
			h.opts = nil
			for _, p := range tc.between {
				h.mustUp(p)
			}
			*checks = nil
			h.opts = withPlans
			h.mustUp(tc.updates)
			if diff := cmp.Diff(tc.checks, *checks); diff != "" {
				t.Errorf("the update's Check calls (-want +got):\n%s", diff)
			}
		})
	}
}
