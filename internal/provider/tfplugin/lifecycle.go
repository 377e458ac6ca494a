package tfplugin

import (
	"context"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Diff implements provider.Provider: upgrade the stored state, plan from it
// and the new inputs, and report what the plan changes. A requires_replace
// path whose value really changed calls for replacement; the change shown
// is then the one from the stored state to a new object, planned as a
// create, as terraform shows it: what the provider computes is unknown, not
// what the update plan would have kept or dropped.
func (p *Provider) Diff(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	t, err := p.resourceTarget(req.URN, "Diff")
	if err != nil {
		return provider.DiffResponse{}, err
	}
	prior, pd, err := p.loadState(ctx, t, req.ID, req.OldOutputs, req.Private)
	if err != nil {
		return provider.DiffResponse{}, err
	}
	cfg, err := p.configOf(t, ignoreChanges(req.News, req.OldOutputs, req.IgnoreChanges))
	if err != nil {
		return provider.DiffResponse{}, err
	}
	plan, err := p.plan(ctx, t, prior, cfg, pd.tf)
	if err != nil {
		return provider.DiffResponse{}, err
	}
	replace := realReplacements(prior, plan.state, plan.replace)
	shown := plan.state
	if len(replace) > 0 {
		create, err := p.plan(ctx, t, cty.NullVal(t.ty), cfg, nil)
		if err != nil {
			return provider.DiffResponse{}, err
		}
		shown = create.state
	}
	resp := provider.DiffResponse{Changes: provider.DiffNone}
	if len(replace) > 0 || !plan.unchanged {
		resp = diffResponse(prior, shown, replace)
	}
	if resp.Changes == provider.DiffSome && len(replace) == 0 {
		p.plans.store(req.URN, plan.state)
	} else {
		p.plans.forget(req.URN)
	}
	return resp, nil
}

// Create implements provider.Provider: plan from a null prior state (or
// reuse the preview's plan, if req.Plan was made from exactly the same
// configuration), then (unless previewing) apply. A provider that reports an error but returns an
// object has created something: that is an InitError, so it is recorded.
func (p *Provider) Create(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	t, err := p.resourceTarget(req.URN, "Create")
	if err != nil {
		return provider.CreateResponse{}, err
	}
	cfg, err := p.configOf(t, req.Inputs)
	if err != nil {
		return provider.CreateResponse{}, err
	}
	prior := cty.NullVal(t.ty)
	plan, err := p.planOrReuse(ctx, t, prior, cfg, nil, req.Plan)
	if err != nil {
		return provider.CreateResponse{}, err
	}
	if req.Preview {
		return provider.CreateResponse{Outputs: t.outputs(plan.state, req.Inputs), Plan: p.keep(t, plan)}, nil
	}
	state, priv, err := p.apply(ctx, t, prior, plan, cfg.value, req.Timeout)
	switch {
	case err != nil:
		return provider.CreateResponse{}, t.partial(err, state, priv, req.Inputs, "")
	case state.IsNull():
		return provider.CreateResponse{}, provider.OutcomeUnknown(fmt.Errorf("%s: provider %s returned no object after creating it, and no error; this is a bug in the provider, and the resource may exist", t.op, p.cfg.Name))
	}
	return provider.CreateResponse{
		ID:      stateID(state, noID),
		Outputs: t.outputs(state, req.Inputs),
		Private: p.privateFor(t, priv, !plan.legacy),
	}, nil
}

// partial wraps an apply error: if the provider still returned an object,
// it exists and must be recorded, so the error is an InitError. id is the
// resource's ID if it had one before (an update). An object whose id
// attribute is null names nothing that exists: the error stands.
func (t target) partial(err error, state cty.Value, priv []byte, inputs resource.Object, id string) error {
	if state == cty.NilVal || state.IsNull() || !state.IsKnown() {
		return err
	}
	state = unknownsToNulls(state)
	id = stateID(state, id)
	if id == "" {
		if t.s.block.attributes["id"] != nil {
			return err
		}
		id = noID
	}
	reasons := []string{err.Error()}
	if e, ok := err.(*Error); ok {
		reasons = e.reasons()
	}
	return &provider.InitError{
		ID:      id,
		Outputs: t.outputs(state, inputs),
		Private: encodePrivate(t.s.version, priv),
		Reasons: reasons,
	}
}

// Update implements provider.Provider: plan again from the stored state and
// the new inputs (or reuse the preview's plan, if req.Plan was made from
// exactly the same), refuse a final plan that breaks the one Diff showed, and
// apply.
func (p *Provider) Update(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	t, err := p.resourceTarget(req.URN, "Update")
	if err != nil {
		return provider.UpdateResponse{}, err
	}
	prior, pd, err := p.loadState(ctx, t, req.ID, req.OldOutputs, req.Private)
	if err != nil {
		return provider.UpdateResponse{}, err
	}
	cfg, err := p.configOf(t, ignoreChanges(req.News, req.OldOutputs, req.IgnoreChanges))
	if err != nil {
		return provider.UpdateResponse{}, err
	}
	plan, err := p.planOrReuse(ctx, t, prior, cfg, pd.tf, req.Plan)
	if err != nil {
		return provider.UpdateResponse{}, err
	}
	first, hadFirst := p.plans.take(req.URN)
	if req.Preview {
		return provider.UpdateResponse{Outputs: t.outputs(plan.state, req.News), Private: req.Private, Plan: p.keep(t, plan)}, nil
	}
	if hadFirst && !plan.legacy {
		if err := p.inconsistent(t, "final plan", compatible(first, plan.state)); err != nil {
			return provider.UpdateResponse{}, err
		}
	}
	state, priv, err := p.apply(ctx, t, prior, plan, cfg.value, req.Timeout)
	switch {
	case err != nil:
		return provider.UpdateResponse{}, t.partial(err, state, priv, req.News, req.ID)
	case state.IsNull():
		return provider.UpdateResponse{}, provider.OutcomeUnknown(fmt.Errorf("%s: provider %s returned no object after updating it, and no error; this is a bug in the provider", t.op, p.cfg.Name))
	}
	return provider.UpdateResponse{Outputs: t.outputs(state, req.News), Private: p.privateFor(t, priv, !plan.legacy)}, nil
}

// Delete implements provider.Provider: plan (if the provider asks for
// destroy plans) and apply a change to a null state.
func (p *Provider) Delete(ctx context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
	t, err := p.resourceTarget(req.URN, "Delete")
	if err != nil {
		return provider.DeleteResponse{}, err
	}
	prior, pd, err := p.loadState(ctx, t, req.ID, req.Outputs, req.Private)
	if err != nil || prior.IsNull() {
		return provider.DeleteResponse{}, err
	}
	null := cty.NullVal(t.ty)
	plan := planned{state: null, private: pd.tf}
	if p.schemas.caps.planDestroy {
		if plan, err = p.plan(ctx, t, prior, configuration{value: null}, pd.tf); err != nil {
			return provider.DeleteResponse{}, err
		}
	}
	state, _, err := p.apply(ctx, t, prior, plan, null, req.Timeout)
	if err != nil {
		return provider.DeleteResponse{}, err
	}
	if !state.IsNull() {
		return provider.DeleteResponse{}, fmt.Errorf("%s: provider %s returned an object after deleting it; the resource may still exist", t.op, p.cfg.Name)
	}
	return provider.DeleteResponse{}, nil
}

// unknownsToNulls replaces what a faulty provider left unknown with nulls, so
// that what exists can still be recorded.
func unknownsToNulls(v cty.Value) cty.Value {
	out, _ := cty.Transform(v, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		if !v.IsKnown() {
			return cty.NullVal(v.Type()), nil
		}
		return v, nil
	})
	return out
}
