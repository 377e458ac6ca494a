package tfplugin

import (
	"context"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Read implements provider.Provider. With stored state it refreshes
// (ReadResource; a null result means the resource was deleted outside, and
// the response has an empty ID). With no inputs and no state it imports the
// resource by ID (ImportResourceState, then ReadResource) and returns the
// settable attributes as inputs, ready for Check.
func (p *Provider) Read(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	if len(req.Inputs) == 0 && len(req.State) == 0 {
		return p.importResource(ctx, req)
	}
	if len(req.Private) == 0 && req.ID != "" {
		if resp, ok := p.recoverResource(ctx, req); ok {
			return resp, nil
		}
	}
	t, err := p.resourceTarget(req.URN, "Read")
	if err != nil {
		return provider.ReadResponse{}, err
	}
	prior, pd, err := p.loadState(ctx, t, req.ID, req.State, req.Private)
	if err != nil {
		return provider.ReadResponse{}, err
	}
	state, priv, err := p.read(ctx, t, prior, pd.tf)
	if err != nil || state.IsNull() {
		return provider.ReadResponse{}, err
	}
	outputs := t.outputs(state, req.Inputs)
	return provider.ReadResponse{
		ID:      stateID(state, req.ID),
		Inputs:  refreshedInputs(t.s.block, outputs, req.Inputs),
		Outputs: outputs,
		Private: p.privateFor(t, priv, pd.current),
	}, nil
}

// recoverResource reads in full a resource recorded without anything this
// adapter wrote (no private data): a pending create resolved with an ID,
// whose recorded state is only its inputs. Refreshing that state would
// leave defaults and computed attributes null, and the next plan would
// replace what was just recovered. So the resource is imported by ID
// (ImportResourceState, ReadResource) when its type allows; otherwise the
// nulls are filled from the provider's own plan for the recorded state
// before it is read. The inputs the program set are kept. ok is false if
// neither works; the caller then refreshes as usual.
func (p *Provider) recoverResource(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, bool) {
	t, err := p.resourceTarget(req.URN, "Read")
	if err != nil {
		return provider.ReadResponse{}, false
	}
	resp, err := p.importResource(ctx, provider.ReadRequest{URN: req.URN, ID: req.ID})
	if err != nil || resp.ID == "" {
		if resp, err = p.readFilled(ctx, t, req); err != nil || resp.ID == "" {
			return provider.ReadResponse{}, false
		}
	}
	resp.Outputs = stickySecrets(resp.Outputs, req.Inputs)
	resp.Inputs = refreshedInputs(t.s.block, resp.Outputs, req.Inputs)
	return resp, true
}

// readFilled reads a resource whose recorded state lacks what the provider
// computes: the nulls are filled from the provider's plan for that state
// and its inputs (defaults, values it computes from the configuration).
func (p *Provider) readFilled(ctx context.Context, t target, req provider.ReadRequest) (provider.ReadResponse, error) {
	prior, _, err := p.loadState(ctx, t, req.ID, req.State, nil)
	if err != nil || prior.IsNull() {
		return provider.ReadResponse{}, err
	}
	cfg, err := t.config(req.Inputs)
	if err != nil {
		return provider.ReadResponse{}, err
	}
	plan, err := p.plan(ctx, t, prior, configuration{value: cfg}, nil)
	if err != nil {
		return provider.ReadResponse{}, err
	}
	state, priv, err := p.read(ctx, t, fillNulls(prior, plan.state), nil)
	if err != nil || state.IsNull() {
		return provider.ReadResponse{}, err
	}
	return provider.ReadResponse{ID: stateID(state, req.ID), Outputs: t.outputs(state, req.Inputs), Private: encodePrivate(t.s.version, priv)}, nil
}

// fillNulls takes, for each top-level attribute null in prior, the
// planned value if it is known.
func fillNulls(prior, planned cty.Value) cty.Value {
	if !prior.Type().IsObjectType() || planned.IsNull() || !planned.IsKnown() {
		return prior
	}
	attrs := prior.AsValueMap()
	for name, v := range attrs {
		if !v.IsNull() || !planned.Type().HasAttribute(name) {
			continue
		}
		if pv := planned.GetAttr(name); pv.IsWhollyKnown() {
			attrs[name] = pv
		}
	}
	return cty.ObjectVal(attrs)
}

// read calls ReadResource and checks the answer.
func (p *Provider) read(ctx context.Context, t target, current cty.Value, priv []byte) (cty.Value, []byte, error) {
	dv, err := encode(current, t.ty)
	if err != nil {
		return cty.NilVal, nil, err
	}
	resp, err := p.wire.readResource(ctx, readRequest{typeName: t.name, state: dv, private: priv})
	if err != nil {
		return cty.NilVal, nil, p.rpcError("ReadResource for "+t.op, err)
	}
	if err := p.diagnose("ReadResource for "+t.op, resp.diags); err != nil {
		return cty.NilVal, nil, err
	}
	if resp.deferred != "" {
		return cty.NilVal, nil, fmt.Errorf("%s: provider %s deferred the read (%s), which plinth does not support", t.op, p.cfg.Name, resp.deferred)
	}
	if n := len(resp.state.msgpack) + len(resp.state.json); n > provider.MaxStateBytes {
		return cty.NilVal, nil, fmt.Errorf("%s: %w", t.op, &provider.StateTooLargeError{URN: t.urn, Size: n})
	}
	state, err := decode(resp.state, t.ty)
	if err != nil {
		return cty.NilVal, nil, fmt.Errorf("%s: provider %s returned an invalid state: %w", t.op, p.cfg.Name, err)
	}
	if ps := unknownPaths(state); len(ps) > 0 {
		return cty.NilVal, nil, fmt.Errorf("%s: provider %s returned attribute %s unknown from a read; this is a bug in the provider", t.op, p.cfg.Name, formatPath(ps[0]))
	}
	return state, resp.private, nil
}

// refreshedInputs updates the recorded inputs from refreshed state: each
// input the program set takes the state's value, so drift shows as a change
// of inputs; secret inputs stay secret.
func refreshedInputs(b *block, outputs, olds resource.Object) resource.Object {
	settableNow := settable(b, outputs)
	out := resource.Object{}
	for k, old := range olds {
		v, ok := settableNow[k]
		if !ok {
			v = resource.Null()
			if b.attributes[k] == nil && b.blocks[k] == nil {
				v = old // not a schema property: leave it alone
			}
		}
		if old.ContainsSecrets() && !v.IsNull() {
			v = resource.MakeSecret(v)
		}
		out[k] = v
	}
	return out
}

func (p *Provider) importResource(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	t, err := p.resourceTarget(req.URN, "Import")
	if err != nil {
		return provider.ReadResponse{}, err
	}
	resp, err := p.wire.importState(ctx, t.name, req.ID)
	if err != nil {
		return provider.ReadResponse{}, p.rpcError("ImportResourceState for "+t.op, err)
	}
	if err := p.diagnose(fmt.Sprintf("ImportResourceState for %s (ID %q)", t.op, req.ID), resp.diags); err != nil {
		return provider.ReadResponse{}, err
	}
	if resp.deferred != "" {
		return provider.ReadResponse{}, fmt.Errorf("%s: provider %s deferred the import (%s), which plinth does not support", t.op, p.cfg.Name, resp.deferred)
	}
	imp, err := pickImported(resp.resources, t)
	if err != nil {
		return provider.ReadResponse{}, err
	}
	current, err := decode(imp.state, t.ty)
	if err != nil {
		return provider.ReadResponse{}, fmt.Errorf("%s: provider %s returned an invalid imported state: %w", t.op, p.cfg.Name, err)
	}
	state, priv, err := p.read(ctx, t, current, imp.private)
	if err != nil || state.IsNull() {
		return provider.ReadResponse{}, err
	}
	outputs := t.outputs(state, nil)
	return provider.ReadResponse{
		ID:      stateID(state, req.ID),
		Inputs:  importInputs(t.s.block, outputs),
		Outputs: outputs,
		Private: encodePrivate(t.s.version, priv),
	}, nil
}

// importInputs are the inputs an imported object is recorded with: its
// settable attributes, except deprecated ones the provider computes anyway
// (random_string's number). Left unset, those keep their value; set, they
// would draw a deprecation warning on every run of the program that the
// import's snippet goes into.
func importInputs(b *block, outputs resource.Object) resource.Object {
	in := settable(b, outputs)
	for name, a := range b.attributes {
		if a.deprecated && a.computed {
			delete(in, name)
		}
	}
	return in
}

// pickImported chooses the imported object of the requested type.
func pickImported(objs []imported, t target) (imported, error) {
	for _, o := range objs {
		if o.typeName == t.name || o.typeName == "" {
			return o, nil
		}
	}
	return imported{}, fmt.Errorf("%s: the provider imported no object of type %s", t.op, t.name)
}
