package tfserve

import (
	"context"
	"errors"
	"sort"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// planned is PlanResourceChange's answer.
type planned struct {
	state   tftypes.Value
	replace []*tftypes.AttributePath
	private []byte
}

// planResource plans a change: Check, then (for an existing resource)
// Diff, then a preview of Create or Update for the outputs; unknown where
// the SDK cannot tell yet.
func (c *core) planResource(ctx context.Context, name string, prior, proposed, config tftypes.Value, priorPrivate []byte) (planned, diags) {
	r, ds := c.resource(name)
	if ds != nil {
		return planned{}, ds
	}
	if proposed.IsNull() {
		return planned{state: proposed, private: priorPrivate}, nil
	}
	cfg, err := newConfigured(r.obj, config)
	if err != nil {
		return planned{}, diags{errorDiag("PlanResourceChange", name, err)}
	}
	if prior.IsNull() {
		return c.planCreate(ctx, r, nil, cfg)
	}
	return c.planUpdate(ctx, r, prior, proposed, cfg, priorPrivate)
}

func (c *core) planCreate(ctx context.Context, r *resourceModel, olds resource.Object, cfg *configured) (planned, diags) {
	checked, ds := c.check(ctx, r, olds, cfg.inputs)
	if ds != nil {
		return planned{}, ds
	}
	resp, err := c.p.Create(ctx, provider.CreateRequest{URN: r.urn(), Inputs: checked, Preview: true})
	if err != nil {
		return planned{}, diags{errorDiag("Create (preview)", r.name, err)}
	}
	st, err := r.state(checked, resp.Outputs, resource.Unknown(), cfg)
	if err != nil {
		return planned{}, diags{errorDiag("PlanResourceChange", r.name, err)}
	}
	return planned{state: st}, nil
}

func (c *core) planUpdate(ctx context.Context, r *resourceModel, prior, proposed tftypes.Value, cfg *configured, private []byte) (planned, diags) {
	olds, outs, id, err := r.parts(prior, private)
	if err != nil {
		return planned{}, diags{errorDiag("PlanResourceChange", r.name, err)}
	}
	checked, ds := c.check(ctx, r, olds, cfg.inputs)
	if ds != nil {
		return planned{}, ds
	}
	diff, err := c.p.Diff(ctx, provider.DiffRequest{URN: r.urn(), ID: id, OldInputs: olds, OldOutputs: outs, News: checked})
	if err != nil {
		return planned{}, diags{errorDiag("Diff", r.name, err)}
	}
	switch {
	case diff.Changes == provider.DiffNone:
		// Terraform proposes the configuration's write-only values; a
		// plan never holds them.
		return planned{state: withoutWriteOnly(keepPrior(prior, proposed, r.obj), r.obj), private: private}, nil
	case diff.Replaces():
		p, ds := c.planCreate(ctx, r, olds, cfg)
		p.replace = replacePaths(diff, r.obj)
		return p, ds
	}
	resp, err := c.p.Update(ctx, provider.UpdateRequest{URN: r.urn(), ID: id, OldInputs: olds, OldOutputs: outs, News: checked, Preview: true})
	if err != nil {
		return planned{}, diags{errorDiag("Update (preview)", r.name, err)}
	}
	st, err := r.state(checked, resp.Outputs, resource.NewString(id), cfg)
	if err != nil {
		return planned{}, diags{errorDiag("PlanResourceChange", r.name, err)}
	}
	return planned{state: st, private: private}, nil
}

// keepPrior plans the prior value of every attribute the configuration
// sets when the provider finds no change: the configuration then spells
// the same thing differently (a file mode "644" recorded as "0644" by an
// import), and Terraform accepts the prior value for it, so the plan is
// empty instead of rewriting the state's spelling.
func keepPrior(prior, proposed tftypes.Value, t *vtype) tftypes.Value {
	var pvals, nvals map[string]tftypes.Value
	if prior.As(&pvals) != nil || proposed.As(&nvals) != nil {
		return proposed
	}
	vals, types := map[string]tftypes.Value{}, map[string]tftypes.Type{}
	for _, a := range t.attrs {
		pv, nv := pvals[a.tf], nvals[a.tf]
		vals[a.tf] = nv
		if a.input && !pv.IsNull() && nv.IsFullyKnown() && !nv.IsNull() {
			vals[a.tf] = pv
		}
		types[a.tf] = vals[a.tf].Type()
	}
	return tftypes.NewValue(tftypes.Object{AttributeTypes: types}, vals)
}

// replacePaths lists the attributes whose change replaces the resource.
func replacePaths(d provider.DiffResponse, t *vtype) []*tftypes.AttributePath {
	seen := map[string]bool{}
	for _, k := range d.ReplaceKeys {
		seen[k] = true
	}
	for p, pd := range d.DetailedDiff {
		if pd.Replace {
			seen[p] = true
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*tftypes.AttributePath, 0, len(keys))
	for _, k := range keys {
		out = append(out, attributePath(k, t))
	}
	return out
}

// applyResource carries out a planned change: Create, Update or Delete.
func (c *core) applyResource(ctx context.Context, name string, prior, plannedState, config tftypes.Value, private []byte) (tftypes.Value, []byte, diags) {
	r, ds := c.resource(name)
	if ds != nil {
		return tftypes.Value{}, nil, ds
	}
	if plannedState.IsNull() {
		return c.delete(ctx, r, prior, private)
	}
	cfg, err := newConfigured(r.obj, config)
	if err != nil {
		return prior, private, diags{errorDiag("ApplyResourceChange", name, err)}
	}
	if prior.IsNull() {
		return c.create(ctx, r, cfg)
	}
	return c.update(ctx, r, prior, cfg, private)
}

func (c *core) delete(ctx context.Context, r *resourceModel, prior tftypes.Value, private []byte) (tftypes.Value, []byte, diags) {
	ins, outs, id, err := r.parts(prior, private)
	if err == nil {
		_, err = c.p.Delete(ctx, provider.DeleteRequest{URN: r.urn(), ID: id, Inputs: ins, Outputs: outs})
	}
	if err != nil {
		return prior, private, diags{errorDiag("Delete", r.name, err)}
	}
	return tftypes.NewValue(r.obj.tftype(), nil), nil, nil
}

func (c *core) create(ctx context.Context, r *resourceModel, cfg *configured) (tftypes.Value, []byte, diags) {
	checked, ds := c.check(ctx, r, nil, cfg.inputs)
	if ds != nil {
		return tftypes.NewValue(r.obj.tftype(), nil), nil, ds
	}
	resp, err := c.p.Create(ctx, provider.CreateRequest{URN: r.urn(), Inputs: checked})
	var ie *provider.InitError
	switch {
	case errors.As(err, &ie):
		resp.ID, resp.Outputs = ie.ID, ie.Outputs
	case err != nil:
		return tftypes.NewValue(r.obj.tftype(), nil), nil, diags{errorDiag("Create", r.name, err)}
	}
	st, serr := r.state(checked, resp.Outputs, resource.NewString(resp.ID), cfg)
	if serr != nil {
		return tftypes.NewValue(r.obj.tftype(), nil), nil, diags{errorDiag("Create", r.name, serr)}
	}
	if err != nil {
		// Created but not initialised: Terraform records it, tainted.
		return st, r.privateOf(checked, resp.Outputs), diags{errorDiag("Create", r.name, err)}
	}
	return st, r.privateOf(checked, resp.Outputs), nil
}

func (c *core) update(ctx context.Context, r *resourceModel, prior tftypes.Value, cfg *configured, private []byte) (tftypes.Value, []byte, diags) {
	olds, outs, id, err := r.parts(prior, private)
	if err != nil {
		return prior, private, diags{errorDiag("Update", r.name, err)}
	}
	checked, ds := c.check(ctx, r, olds, cfg.inputs)
	if ds != nil {
		return prior, private, ds
	}
	resp, err := c.p.Update(ctx, provider.UpdateRequest{URN: r.urn(), ID: id, OldInputs: olds, OldOutputs: outs, News: checked})
	var ie *provider.InitError
	switch {
	case errors.As(err, &ie):
		resp.Outputs = ie.Outputs
	case err != nil:
		return prior, private, diags{errorDiag("Update", r.name, err)}
	}
	st, serr := r.state(checked, resp.Outputs, resource.NewString(id), cfg)
	if serr != nil {
		return prior, private, diags{errorDiag("Update", r.name, serr)}
	}
	if err != nil {
		return st, r.privateOf(checked, resp.Outputs), diags{errorDiag("Update", r.name, err)}
	}
	return st, r.privateOf(checked, resp.Outputs), nil
}
