package tfplugin

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Check implements provider.Provider: the inputs are checked against the
// schema as Terraform checks configuration, then ValidateResourceConfig.
// Diagnostics with attribute paths become failures of those properties.
func (p *Provider) Check(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	name := typeName(req.URN.Type())
	op := fmt.Sprintf("Check of %s %q", name, req.URN.Name())
	s, ok := p.schemas.resources[name]
	if !ok {
		return provider.CheckResponse{Failures: []provider.CheckFailure{{
			Reason: fmt.Sprintf("provider %s has no resource type %s (type token %s)", p.cfg.Name, name, req.URN.Type()),
		}}}, nil
	}
	cb := configBuilder{strict: true}
	cfg := cb.root(s.block, req.News)
	if len(cb.failures) > 0 {
		return provider.CheckResponse{Failures: cb.failures}, nil
	}
	dv, err := encode(cfg, s.block.impliedType())
	if err != nil {
		return provider.CheckResponse{}, err
	}
	diags, err := p.validateResource(ctx, name, dv)
	if err != nil {
		return provider.CheckResponse{}, p.rpcError(op, err)
	}
	resp := provider.CheckResponse{Inputs: markSensitive(s.block, req.News), Failures: p.failures(op, diags)}
	if len(resp.Failures) == 0 {
		p.checked.keep(req.URN, resp.Inputs, configuration{value: cfg, encoded: dv})
	}
	return resp, nil
}

// config builds a resource's configuration from checked inputs.
func (t target) config(inputs resource.Object) (cty.Value, error) {
	cb := configBuilder{}
	cfg := cb.root(t.s.block, inputs)
	return cfg, failuresError(t.op, cb.failures)
}

// loadState turns a stored resource back into the provider's current state
// value: UpgradeResourceState with the schema version it was written with,
// as Terraform does on every read of stored state, unless this binary
// wrote the state at the schema version it has now (private.go says why
// the call is then an identity); such a state is decoded here, and
// pd.current says so.
func (p *Provider) loadState(ctx context.Context, t target, id string, outputs resource.Object, priv []byte) (cty.Value, private, error) {
	pd, err := decodePrivate(priv)
	if err != nil {
		return cty.NilVal, pd, fmt.Errorf("%s: %w; was the resource recorded by another provider adapter?", t.op, err)
	}
	if len(outputs) == 0 {
		return cty.NullVal(t.ty), pd, nil
	}
	if !pd.hasVersion {
		pd.schemaVersion = t.s.version
	}
	if _, ok := outputs["id"]; !ok && id != "" && t.s.block.attributes["id"] != nil {
		outputs = outputs.Copy()
		outputs["id"] = resource.NewString(id)
	}
	if p.upToDate(t, pd) {
		if state, err := toCty(resource.NewObject(outputs), t.ty, nil); err == nil {
			pd.current = true
			return state, pd, nil
		}
		// Not the form this binary writes after all: let it upgrade.
	}
	raw, err := stateJSON(outputs)
	if err != nil {
		return cty.NilVal, pd, fmt.Errorf("%s: stored state: %w", t.op, err)
	}
	resp, err := p.wire.upgradeState(ctx, upgradeRequest{typeName: t.name, version: pd.schemaVersion, rawJSON: raw})
	if err != nil {
		return cty.NilVal, pd, p.rpcError("UpgradeResourceState for "+t.op, err)
	}
	if err := p.diagnose("UpgradeResourceState for "+t.op, resp.diags); err != nil {
		return cty.NilVal, pd, err
	}
	state, err := decode(resp.state, t.ty)
	if err != nil {
		return cty.NilVal, pd, fmt.Errorf("%s: provider %s returned an invalid upgraded state: %w", t.op, p.cfg.Name, err)
	}
	return state, pd, nil
}

// planned is the result of PlanResourceChange, with the request and the
// configuration it was made from (for keep).
type planned struct {
	state cty.Value
	// raw is state as the provider sent it (msgpack), if it did: apply
	// sends it back as it came instead of encoding state again.
	raw     dynamicValue
	replace []cty.Path
	private []byte
	legacy  bool
	request planRequest
	config  cty.Value
	// unchanged says the provider planned the prior state's own bytes:
	// state is the prior state.
	unchanged bool
}

// plan builds the proposed new state and asks the provider to plan.
func (p *Provider) plan(ctx context.Context, t target, prior cty.Value, config configuration, priorPrivate []byte) (planned, error) {
	return p.planOrReuse(ctx, t, prior, config, priorPrivate, nil)
}

// planOrReuse is plan, except that a kept plan (see reuse.go) made from
// exactly the same request is returned without asking the provider.
func (p *Provider) planOrReuse(ctx context.Context, t target, prior cty.Value, cfg configuration, priorPrivate, kept []byte) (planned, error) {
	req := planRequest{typeName: t.name, priorPrivate: priorPrivate}
	config := cfg.value
	var err error
	if req.prior, err = encode(prior, t.ty); err != nil {
		return planned{}, err
	}
	if req.config, err = cfg.encode(t.ty); err != nil {
		return planned{}, err
	}
	if pl, ok := p.reuse(t, req, kept); ok {
		return pl, nil
	}
	if req.proposed, err = encodeProposed(proposedNew(t.s.block, prior, config), prior, config, req, t.ty); err != nil {
		return planned{}, err
	}
	resp, err := p.wire.planChange(ctx, req)
	if err != nil {
		return planned{}, p.rpcError("PlanResourceChange for "+t.op, err)
	}
	if err := p.diagnose("PlanResourceChange for "+t.op, resp.diags); err != nil {
		return planned{}, err
	}
	if resp.deferred != "" {
		return planned{}, fmt.Errorf("%s: provider %s deferred the plan (%s), which plinth does not support", t.op, p.cfg.Name, resp.deferred)
	}
	state, same, err := plannedState(resp.planned, req.prior, prior, t.ty)
	if err != nil {
		return planned{}, fmt.Errorf("%s: provider %s returned an invalid planned state: %w", t.op, p.cfg.Name, err)
	}
	if err := p.invalidPlan(t, prior, config, state, resp.legacyTypes); err != nil {
		return planned{}, err
	}
	return planned{state: state, raw: dynamicValue{msgpack: resp.planned.msgpack}, replace: resp.requiresReplace,
		private: resp.plannedPrivate, legacy: resp.legacyTypes, request: req, config: config, unchanged: same}, nil
}

// plannedState decodes a planned state and says whether it is the prior
// state. A provider that sends back the very bytes of the prior state it
// was given (a plan that changes nothing, as for every unchanged resource
// of a plan) planned the prior state itself, which needs no decoding: the
// bytes were encoded from it, and cty's msgpack refuses a value with
// marks, so it is exactly what decoding them would give.
func plannedState(planned, priorBytes dynamicValue, prior cty.Value, ty cty.Type) (v cty.Value, same bool, err error) {
	if len(planned.msgpack) > 0 && bytes.Equal(planned.msgpack, priorBytes.msgpack) {
		return prior, true, nil
	}
	v, err = decode(planned, ty)
	return v, false, err
}

// encodeProposed encodes the proposed new state, reusing the prior
// state's or the configuration's bytes when it equals one of them, as it
// does for every unchanged resource (the prior state) and most creates
// (the configuration).
func encodeProposed(proposed, prior, config cty.Value, req planRequest, ty cty.Type) (dynamicValue, error) {
	switch {
	case rawEquals(proposed, prior):
		return req.prior, nil
	case rawEquals(proposed, config):
		return req.config, nil
	}
	return encode(proposed, ty)
}

// InconsistentError is a provider breaking its own promise: a final plan
// that differs from the plan shown, or an apply result that differs from the
// final plan. It names each attribute; it is a bug in the provider.
type InconsistentError struct {
	Provider   string
	Operation  string
	Stage      string // "final plan" or "result after apply"
	Attributes []string
}

func (e *InconsistentError) Error() string {
	return fmt.Sprintf("provider %s produced an inconsistent %s during %s: %s. This is a bug in the provider; report it to its maintainers",
		e.Provider, e.Stage, e.Operation, strings.Join(e.Attributes, "; "))
}

func (p *Provider) inconsistent(t target, stage string, ms []mismatch) error {
	if len(ms) == 0 {
		return nil
	}
	e := &InconsistentError{Provider: p.cfg.Name, Operation: t.op, Stage: stage}
	for _, m := range ms {
		e.Attributes = append(e.Attributes, m.describe(t.s))
	}
	return e
}

// apply calls ApplyResourceChange, bounded by timeout if it is set, and
// checks the result against the plan. On error it still returns the new
// state the provider reported (a partial create or update leaves something
// that must be recorded). A call that ended without a readable answer (a
// crash, a broken connection, the timeout, a cancellation, an undecodable
// state) is provider.OutcomeUnknown: it may have changed the world.
func (p *Provider) apply(ctx context.Context, t target, prior cty.Value, plan planned, config cty.Value, timeout time.Duration) (cty.Value, []byte, error) {
	req := applyRequest{typeName: t.name, plannedPrivate: plan.private}
	var err error
	if req.prior, err = encodedOr(plan.request.prior, prior, t.ty); err != nil {
		return cty.NilVal, nil, err
	}
	if req.planned, err = encodedOr(plan.raw, plan.state, t.ty); err != nil {
		return cty.NilVal, nil, err
	}
	if req.config, err = encodedOr(plan.request.config, config, t.ty); err != nil {
		return cty.NilVal, nil, err
	}
	ctx, cancel := withTimeout(ctx, timeout)
	defer cancel()
	resp, err := p.wire.applyChange(ctx, req)
	if err != nil {
		uncertain := p.noAnswer(err)
		err = p.rpcError("ApplyResourceChange for "+t.op, err)
		if uncertain {
			err = provider.OutcomeUnknown(err)
		}
		return cty.NilVal, nil, err
	}
	return p.applied(t, plan, resp)
}

// encodedOr is the encoding the plan was asked or answered with, if it
// has one, else v's: apply is always called with the prior state,
// configuration and planned state of its plan, so the plan's bytes are
// theirs and need not be made again.
func encodedOr(planned dynamicValue, v cty.Value, ty cty.Type) (dynamicValue, error) {
	if planned.msgpack != nil {
		return planned, nil
	}
	return encode(v, ty)
}

// applied checks an apply's answer: errors the provider reported, the new
// state, unknowns left in it, and consistency with the plan.
func (p *Provider) applied(t target, plan planned, resp applyResponse) (cty.Value, []byte, error) {
	op := "ApplyResourceChange for " + t.op
	state, decodeErr := decode(resp.state, t.ty)
	if decodeErr != nil {
		// What the provider did cannot be read, errors or not.
		err := fmt.Errorf("%s: provider %s returned an invalid new state: %w", t.op, p.cfg.Name, decodeErr)
		if derr := p.diagnose(op, resp.diags); derr != nil {
			err = fmt.Errorf("%w; it also reported: %v", err, derr)
		}
		return cty.NilVal, nil, provider.OutcomeUnknown(err)
	}
	if err := p.diagnose(op, resp.diags); err != nil {
		return state, resp.private, err
	}
	if n := len(resp.state.msgpack) + len(resp.state.json); n > provider.MaxStateBytes {
		// Keep only the ID, so that what was made is not forgotten.
		return idOnly(state), resp.private, &provider.StateTooLargeError{URN: t.urn, Size: n}
	}
	if ps := unknownPaths(state); len(ps) > 0 {
		return state, resp.private, fmt.Errorf("%s: provider %s left attribute %s unknown after apply; this is a bug in the provider", t.op, p.cfg.Name, formatPath(ps[0]))
	}
	if !plan.legacy && !resp.legacyTypes {
		return state, resp.private, p.inconsistent(t, "result after apply", compatible(plan.state, state))
	}
	return state, resp.private, nil
}

// idOnly keeps a state's id attribute and makes every other one null.
func idOnly(state cty.Value) cty.Value {
	if state.IsNull() || !state.Type().IsObjectType() {
		return state
	}
	attrs := map[string]cty.Value{}
	for name, ty := range state.Type().AttributeTypes() {
		attrs[name] = cty.NullVal(ty)
		if name == "id" {
			attrs[name] = state.GetAttr(name)
		}
	}
	return cty.ObjectVal(attrs)
}

// outputs converts a state value for the engine: sensitive attributes and
// whatever came from secret inputs become secrets.
func (t target) outputs(state cty.Value, inputs resource.Object) resource.Object {
	o := fromCty(state).Object()
	return stickySecrets(markSensitive(t.s.block, o), inputs)
}

// stateID is the resource ID: the id attribute, or fallback when the state
// has none.
func stateID(state cty.Value, fallback string) string {
	if state.IsNull() || !state.IsKnown() || !state.Type().IsObjectType() || !state.Type().HasAttribute("id") {
		return fallback
	}
	id := state.GetAttr("id")
	if id.IsNull() || !id.IsKnown() || id.Type() != cty.String || id.AsString() == "" {
		return fallback
	}
	return id.AsString()
}

// noID is the ID of a resource whose type has no id attribute.
const noID = "none"

// realReplacements keeps the requires_replace paths whose values really
// changed between prior and planned state (an unknown planned value counts
// as a change). A create replaces nothing.
func realReplacements(prior, planned cty.Value, paths []cty.Path) []cty.Path {
	if prior.IsNull() {
		return nil
	}
	var out []cty.Path
	for _, path := range paths {
		before, errB := path.Apply(prior)
		after, errA := path.Apply(planned)
		switch {
		case errB != nil && errA != nil:
			continue
		case errB != nil:
			before = cty.NullVal(after.Type())
		case errA != nil:
			after = cty.NullVal(before.Type())
		}
		if eq := before.Equals(after); !eq.IsKnown() || eq.False() {
			out = append(out, path)
		}
	}
	return out
}

// diffResponse describes the planned change for the engine. A replacement
// deletes first: Terraform destroys before it creates unless a resource
// opts into create_before_destroy, and providers are written for that
// order (a local_file replaced at the same path, a resource whose name must
// be unique): created first, the new object would be destroyed, or refused,
// by its predecessor.
func diffResponse(prior, plannedState cty.Value, replace []cty.Path) provider.DiffResponse {
	if len(replace) == 0 && rawEquals(prior, plannedState) {
		// The common case of a plan that changes nothing, decided without
		// converting both states for a diff that would be empty.
		return provider.DiffResponse{Changes: provider.DiffNone}
	}
	paths := make([]resource.PropertyPath, len(replace))
	for i, r := range replace {
		paths[i] = propertyPath(r)
	}
	dd := resource.DiffObjects(fromCty(prior).Object(), fromCty(plannedState).Object(), paths)
	for k, d := range dd {
		d.InputDiff = false
		dd[k] = d
	}
	resp := provider.DiffResponse{Changes: provider.DiffNone}
	if len(dd) > 0 || len(replace) > 0 {
		resp.Changes = provider.DiffSome
		resp.DetailedDiff = dd
		resp.ChangedKeys = topKeys(dd)
	}
	for _, r := range replace {
		if k := topLevel(r); k != "" && !contains(resp.ReplaceKeys, k) {
			resp.ReplaceKeys = append(resp.ReplaceKeys, k)
		}
	}
	sort.Strings(resp.ReplaceKeys)
	resp.DeleteBeforeReplace = len(replace) > 0
	return resp
}

func topKeys(dd resource.DetailedDiff) []string {
	var keys []string
	for _, s := range dd.Paths() {
		p, err := resource.ParsePath(s)
		if err != nil || len(p) == 0 {
			continue
		}
		if k, ok := p[0].(string); ok && !contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ignoreChanges keeps the prior state's value at each ignored path, as
// Terraform's ignore_changes does.
func ignoreChanges(news, olds resource.Object, ignore []resource.PropertyPath) resource.Object {
	if len(ignore) == 0 {
		return news
	}
	root := resource.NewObject(news)
	for _, path := range ignore {
		old, ok := path.Get(resource.NewObject(olds))
		if !ok {
			root, _ = path.Delete(root)
			continue
		}
		if next, ok := path.Set(root, old); ok {
			root = next
		}
	}
	return root.Object()
}
