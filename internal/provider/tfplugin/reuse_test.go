package tfplugin

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// countingWire counts the PlanResourceChange calls made through it.
type countingWire struct {
	wire
	plans *atomic.Int32
}

func (w countingWire) planChange(ctx context.Context, req planRequest) (planResponse, error) {
	w.plans.Add(1)
	return w.wire.planChange(ctx, req)
}

// countPlans makes p count its PlanResourceChange calls.
func countPlans(p *Provider) *atomic.Int32 {
	n := new(atomic.Int32)
	p.wire = countingWire{wire: p.wire, plans: n}
	return n
}

// TestPreviewPlanIsReused: a create or update given the plan its preview
// returned (by another process of the same provider, as `plinth up`'s
// preview and update run) applies it without planning again, but only
// when it was made from exactly the same request; anything else plans
// again.
func TestPreviewPlanIsReused(t *testing.T) {
	ctx := context.Background()
	u := urn("fake_thing", "t")
	a, b := obj(map[string]any{"value": "a"}), obj(map[string]any{"value": "b"})
	previewer := startFake(t, modePlain)
	// An existing object to update, made without any reuse.
	made, err := previewer.Create(ctx, provider.CreateRequest{URN: u, Inputs: a})
	mustOK(t, "Create", err)
	update := func(news resource.Object, outputs resource.Object, plan []byte) provider.UpdateRequest {
		return provider.UpdateRequest{URN: u, ID: made.ID, OldInputs: a, OldOutputs: outputs, News: news, Private: made.Private, Plan: plan}
	}
	cp, err := previewer.Create(ctx, provider.CreateRequest{URN: u, Inputs: a, Preview: true})
	mustOK(t, "Create preview", err)
	upReq := update(b, made.Outputs, nil)
	upReq.Preview = true
	up, err := previewer.Update(ctx, upReq)
	mustOK(t, "Update preview", err)
	if len(cp.Plan) == 0 || len(up.Plan) == 0 {
		t.Fatalf("previews returned no plan (create %d bytes, update %d bytes), want one each", len(cp.Plan), len(up.Plan))
	}
	changedOutputs := made.Outputs.Copy()
	changedOutputs["out"] = resource.NewString("changed since the preview")
	tests := map[string]struct {
		create *provider.CreateRequest
		update *provider.UpdateRequest
		want   int32
	}{
		"create as previewed":                 {create: &provider.CreateRequest{URN: u, Inputs: a, Plan: cp.Plan}, want: 0},
		"create without a plan":               {create: &provider.CreateRequest{URN: u, Inputs: a}, want: 1},
		"create with other inputs":            {create: &provider.CreateRequest{URN: u, Inputs: b, Plan: cp.Plan}, want: 1},
		"create with the update's plan":       {create: &provider.CreateRequest{URN: u, Inputs: a, Plan: up.Plan}, want: 1},
		"create with a broken plan":           {create: &provider.CreateRequest{URN: u, Inputs: a, Plan: []byte("{")}, want: 1},
		"update as previewed":                 {update: refOf(update(b, made.Outputs, up.Plan)), want: 0},
		"update with other inputs":            {update: refOf(update(obj(map[string]any{"value": "c"}), made.Outputs, up.Plan)), want: 1},
		"update of a state changed meanwhile": {update: refOf(update(b, changedOutputs, up.Plan)), want: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := startFake(t, modePlain)
			n := countPlans(p)
			var err error
			if tc.create != nil {
				_, err = p.Create(ctx, *tc.create)
			} else {
				_, err = p.Update(ctx, *tc.update)
			}
			mustOK(t, "apply", err)
			if diff := cmp.Diff(tc.want, n.Load()); diff != "" {
				t.Errorf("PlanResourceChange calls (-want +got):\n%s", diff)
			}
		})
	}
}

func refOf[T any](v T) *T { return &v }
