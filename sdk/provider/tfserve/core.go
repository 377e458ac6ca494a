package tfserve

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"sync"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// core serves an SDK provider in neither protocol's terms: values are
// tftypes values, diagnostics are diags. server5.go and server6.go wrap
// it for each protocol.
type core struct {
	p provider.Provider
	m *model

	mu         sync.Mutex
	configured bool // ConfigureProvider has succeeded
	validating bool // configured with the empty configuration, to validate
}

func newCore(p provider.Provider, blocks bool) (*core, error) {
	resp, err := p.GetSchema(context.Background(), provider.GetSchemaRequest{})
	if err != nil {
		return nil, fmt.Errorf("reading the provider's schema: %w", err)
	}
	m, err := newModel(resp.Schema, blocks)
	if err != nil {
		return nil, err
	}
	if err := m.addEphemerals(p, blocks); err != nil {
		return nil, err
	}
	return &core{p: p, m: m}, nil
}

// urn names a resource for the SDK. Terraform does not say which resource
// of a type it is working on, so the name is the type name.
func (r *resourceModel) urn() resource.URN {
	return resource.NewURN("terraform", "terraform", "", r.token, r.name)
}

func (c *core) resource(name string) (*resourceModel, diags) {
	r, ok := c.m.resources[name]
	if !ok {
		return nil, diags{{summary: "Unsupported resource type",
			detail: fmt.Sprintf("Provider %s has no resource type %q.", c.m.name, name)}}
	}
	return r, nil
}

// parts splits a resource's state into the SDK's inputs and outputs and
// its ID. Inputs recorded in private state win over those read from the
// attributes.
func (r *resourceModel) parts(state tftypes.Value, private []byte) (inputs, outputs resource.Object, id string, err error) {
	all, err := objectFromTF(state, r.obj)
	if err != nil {
		return nil, nil, "", err
	}
	id = all["id"].Str()
	inputs, outputs = resource.Object{}, resource.Object{}
	for _, a := range r.obj.attrs {
		v, ok := all[a.name]
		if !ok || a.id {
			continue
		}
		if a.input {
			inputs[a.name] = v
		}
		if a.output {
			outputs[a.name] = v
		}
	}
	if recorded, ok := r.privateInputs(private); ok {
		inputs = recorded
	}
	if _, author, ok := splitPrivate(private); ok && author != nil {
		outputs[provider.PrivateProperty] = provider.PrivateValue(author)
	}
	return inputs, outputs, id, nil
}

// inputsOf reads the inputs a configuration sets.
func inputsOf(t *vtype, config tftypes.Value) (resource.Object, error) {
	if config.IsNull() {
		return resource.Object{}, nil
	}
	o, err := objectFromTF(config, t)
	if err != nil {
		return nil, err
	}
	delete(o, "id")
	for _, a := range t.attrs {
		if !a.input {
			delete(o, a.name)
		}
	}
	return o, nil
}

// state builds the object Terraform records: the ID; for each other
// attribute the output, else the checked input; then, where there is a
// configuration, the configuration laid over it (see overlay). config is
// nil where there is none (refresh, import, upgrade).
func (r *resourceModel) state(inputs, outputs resource.Object, id resource.Value, config *configured) (tftypes.Value, error) {
	o := resource.Object{}
	for _, a := range r.obj.attrs {
		switch {
		case a.id:
			o[a.name] = id
		case a.output && has(outputs, a.name):
			o[a.name] = outputs[a.name]
		case a.input && has(inputs, a.name):
			o[a.name] = inputs[a.name]
		}
	}
	v, err := objectToTF(o, r.obj, tftypes.NewAttributePath())
	if err != nil {
		return v, err
	}
	if config != nil {
		v = overlay(config.raw, v, r.obj)
	}
	return withoutWriteOnly(v, r.obj), nil
}

// withoutWriteOnly nulls the write-only attributes of a resource's state,
// which Terraform requires of every planned and new state.
func withoutWriteOnly(v tftypes.Value, t *vtype) tftypes.Value {
	var vals map[string]tftypes.Value
	if v.IsNull() || !v.IsKnown() || v.As(&vals) != nil {
		return v
	}
	changed := false
	for _, a := range t.attrs {
		if a.writeOnly && !vals[a.tf].IsNull() {
			vals[a.tf], changed = tftypes.NewValue(a.t.tftype(), nil), true
		}
	}
	if !changed {
		return v
	}
	return tftypes.NewValue(v.Type(), vals)
}

// configured is a resource's configuration: as Terraform sent it, and
// read as the SDK's inputs.
type configured struct {
	raw    tftypes.Value
	inputs resource.Object
}

func newConfigured(t *vtype, raw tftypes.Value) (*configured, error) {
	ins, err := inputsOf(t, raw)
	if err != nil {
		return nil, err
	}
	return &configured{raw: raw, inputs: ins}, nil
}

func has(o resource.Object, name string) bool {
	v, ok := o[name]
	return ok && !v.IsNull()
}

// privateMagic starts the private state tfserve writes: the SDK's checked
// inputs, which Terraform's single state object cannot tell from the
// outputs of the same name. privateMagic2 adds the resource's own private
// data (provider.PrivateProperty): the inputs' length as a uvarint, the
// inputs, then the resource's bytes.
var (
	privateMagic  = []byte("plinth-inputs/1\n")
	privateMagic2 = []byte("plinth-private/2\n")
)

// privateOf writes the private state of a resource with checked inputs
// and outputs, which may hold the resource's own private data.
func (r *resourceModel) privateOf(inputs, outputs resource.Object) []byte {
	v, err := objectToTF(inputs, r.obj, tftypes.NewAttributePath())
	v = withoutWriteOnly(v, r.obj)
	if err != nil || !v.IsFullyKnown() {
		return nil
	}
	dv, err := tfprotov6.NewDynamicValue(r.obj.tftype(), v)
	if err != nil {
		return nil
	}
	author := provider.PrivateData(outputs)
	if author == nil {
		return append(append([]byte{}, privateMagic...), dv.MsgPack...)
	}
	out := binary.AppendUvarint(append([]byte{}, privateMagic2...), uint64(len(dv.MsgPack)))
	return append(append(out, dv.MsgPack...), author...)
}

// splitPrivate returns the encoded inputs and the resource's own data
// recorded in private; ok is false for private state tfserve did not
// write.
func splitPrivate(private []byte) (inputs, author []byte, ok bool) {
	if bytes.HasPrefix(private, privateMagic) {
		return private[len(privateMagic):], nil, true
	}
	if !bytes.HasPrefix(private, privateMagic2) {
		return nil, nil, false
	}
	rest := private[len(privateMagic2):]
	n, w := binary.Uvarint(rest)
	if w <= 0 || uint64(len(rest)-w) < n {
		return nil, nil, false
	}
	return rest[w : w+int(n)], rest[w+int(n):], true
}

func (r *resourceModel) privateInputs(private []byte) (resource.Object, bool) {
	msgpack, _, ok := splitPrivate(private)
	if !ok {
		return nil, false
	}
	v, err := (&tfprotov6.DynamicValue{MsgPack: msgpack}).Unmarshal(r.obj.tftype())
	if err != nil {
		return nil, false
	}
	o, err := inputsOf(r.obj, v)
	return o, err == nil
}

// check runs the SDK's Check; failures become diagnostics on their
// attributes.
func (c *core) check(ctx context.Context, r *resourceModel, olds, news resource.Object) (resource.Object, diags) {
	resp, err := c.p.Check(ctx, provider.CheckRequest{URN: r.urn(), Olds: olds, News: news})
	if err != nil {
		return nil, diags{errorDiag("Check", r.name, err)}
	}
	if len(resp.Failures) > 0 {
		return nil, failureDiags(resp.Failures, r.obj, r.name)
	}
	return resp.Inputs, nil
}

// ensureValidatable configures the provider, as in a preview, with a
// configuration whose required properties are unknown and the rest left
// out, if Terraform has not configured it: Terraform validates
// configuration (terraform validate) and calls provider-defined functions
// without configuring the provider, while the SDK checks inputs and calls
// functions only once configured. Unknown is the truth here: the
// configuration is not known yet. (The SDK runs no Configurer on unknown
// configuration, and GetConfig reads zero values for the unknowns.) A
// configuration the SDK refuses even so leaves the provider unconfigured
// and validation to the plan.
func (c *core) ensureValidatable(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.configured || c.validating {
		return
	}
	c.validating = true
	unknown := resource.Object{}
	for _, a := range c.m.config.attrs {
		if a.required {
			unknown[a.name] = resource.Unknown()
		}
	}
	checked, err := c.p.CheckConfig(ctx, provider.CheckRequest{News: unknown})
	if err != nil || len(checked.Failures) > 0 {
		return
	}
	_, _ = c.p.Configure(ctx, provider.ConfigureRequest{Inputs: checked.Inputs, Preview: true})
}

// validateResource checks a resource's configuration, which may hold
// unknowns.
func (c *core) validateResource(ctx context.Context, name string, config tftypes.Value) diags {
	r, ds := c.resource(name)
	if ds != nil {
		return ds
	}
	news, err := inputsOf(r.obj, config)
	if err != nil {
		return diags{errorDiag("ValidateResourceConfig", name, err)}
	}
	c.ensureValidatable(ctx)
	resp, err := c.p.Check(ctx, provider.CheckRequest{URN: r.urn(), News: news})
	switch {
	case errors.Is(err, provider.ErrNotConfigured):
		return nil
	case err != nil:
		return diags{errorDiag("Check", r.name, err)}
	}
	return append(deprecationDiags(news, r.obj), failureDiags(resp.Failures, r.obj, r.name)...)
}

// deprecationDiags warns of each deprecated attribute o sets, where
// Terraform can show it.
func deprecationDiags(o resource.Object, t *vtype) diags {
	ds := deprecations(o, t, nil)
	for i := range ds {
		ds[i].path = pointable(ds[i].path, t)
	}
	return ds
}

// deprecations warns of each deprecated attribute the configuration sets,
// at any depth, on its attribute.
func deprecations(o resource.Object, t *vtype, path *tftypes.AttributePath) diags {
	if path == nil {
		path = tftypes.NewAttributePath()
	}
	var out diags
	for _, a := range t.attrs {
		v := o[a.name].SecretElement()
		if v.IsNull() {
			continue
		}
		p := path.WithAttributeName(a.tf)
		if a.deprecated != "" {
			out = append(out, diag{warning: true, path: p, summary: "Deprecated attribute",
				detail: fmt.Sprintf("The attribute %s is deprecated: %s", a.tf, a.deprecated)})
		}
		out = append(out, nestedDeprecations(v, a.t, p)...)
	}
	return out
}

func nestedDeprecations(v resource.Value, t *vtype, p *tftypes.AttributePath) diags {
	obj := t.nestedObject()
	if obj == nil || v.IsUnknown() {
		return nil
	}
	var out diags
	switch {
	case t.kind == kindObject && v.Kind() == resource.ObjectKind:
		out = deprecations(v.Object(), obj, p)
	case (t.kind == kindList || t.kind == kindSet) && v.Kind() == resource.ArrayKind:
		for i, e := range v.Array() {
			if e = e.SecretElement(); e.Kind() == resource.ObjectKind {
				out = append(out, deprecations(e.Object(), obj, p.WithElementKeyInt(i))...)
			}
		}
	case t.kind == kindMap && v.Kind() == resource.ObjectKind:
		for k, e := range v.Object() {
			if e = e.SecretElement(); e.Kind() == resource.ObjectKind {
				out = append(out, deprecations(e.Object(), obj, p.WithElementKeyString(k))...)
			}
		}
	}
	return out
}

// codec decodes and encodes one protocol's DynamicValue (DV is
// tfprotov5.DynamicValue or tfprotov6.DynamicValue), so the request
// handlers below serve both protocols; server5.go and server6.go only map
// their request and response fields.
type codec[DV any] struct {
	decode func(*DV, tftypes.Type) (tftypes.Value, error) // nil is null
	encode func(tftypes.Type, tftypes.Value) (*DV, diags)
}

func decodeError(what string, err error) diags {
	return diags{{summary: "Cannot decode " + what, detail: fmt.Sprintf("Terraform sent a value tfserve cannot read: %v.", err)}}
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func unsupported(what string) diags {
	return diags{{summary: "Unsupported operation", detail: what + " is not supported by providers served by plinth's SDK."}}
}

func notJSON(typeName string) diags {
	return diags{{summary: "Cannot upgrade state",
		detail: "The state of " + typeName + " is not JSON (flatmap state from Terraform 0.11 and older is not supported)."}}
}

// resourceType is the type of a resource's values; the dynamic type for
// an unknown resource type (the core reports it).
func (c *core) resourceType(name string) tftypes.Type {
	if r, ok := c.m.resources[name]; ok {
		return r.obj.tftype()
	}
	return tftypes.DynamicPseudoType
}

func (c *core) dataType(name string) tftypes.Type {
	if f, ok := c.m.data[name]; ok {
		return f.dataObj.tftype()
	}
	return tftypes.DynamicPseudoType
}

// checkConfig decodes a configuration of type t and checks it; decoded
// is false if it cannot be decoded.
func checkConfig[DV any](cd codec[DV], raw *DV, t tftypes.Type, what string, check func(tftypes.Value) diags) (ds diags, decoded bool) {
	v, err := cd.decode(raw, t)
	if err != nil {
		return decodeError(what, err), false
	}
	return check(v), true
}

// upgradeState upgrades a resource's JSON state; decode reads it as a
// value of a given type.
func upgradeState[DV any](ctx context.Context, c *core, cd codec[DV], name string, version int64, raw []byte, decode func(tftypes.Type) (tftypes.Value, error)) (*DV, diags) {
	v, ds := c.upgradeResource(ctx, name, version, raw, decode)
	if ds.hasErrors() {
		return nil, ds
	}
	dv, eds := cd.encode(c.resourceType(name), v)
	return dv, append(ds, eds...)
}

// readState refreshes a resource; state it cannot decode is returned as
// it is.
func readState[DV any](ctx context.Context, c *core, cd codec[DV], name string, current *DV, private []byte) (*DV, []byte, diags) {
	t := c.resourceType(name)
	cur, err := cd.decode(current, t)
	if err != nil {
		return current, private, decodeError("the state", err)
	}
	v, priv, ds := c.readResource(ctx, name, cur, private)
	dv, eds := cd.encode(t, v)
	return dv, priv, append(ds, eds...)
}

// planChange plans a resource change: the planned state, the paths that
// require replacement and the planned private state.
func planChange[DV any](ctx context.Context, c *core, cd codec[DV], name string, priorState, proposedState, config *DV, priorPrivate []byte) (*DV, []*tftypes.AttributePath, []byte, diags) {
	t := c.resourceType(name)
	prior, err1 := cd.decode(priorState, t)
	proposed, err2 := cd.decode(proposedState, t)
	cfg, err3 := cd.decode(config, t)
	if err := firstError(err1, err2, err3); err != nil {
		return nil, nil, nil, decodeError("the plan request", err)
	}
	p, ds := c.planResource(ctx, name, prior, proposed, cfg, priorPrivate)
	if ds.hasErrors() {
		return nil, nil, nil, ds
	}
	dv, eds := cd.encode(t, p.state)
	return dv, p.replace, p.private, append(ds, eds...)
}

// applyChange carries out a planned change; if the request cannot be
// decoded the prior state stands.
func applyChange[DV any](ctx context.Context, c *core, cd codec[DV], name string, priorState, plannedState, config *DV, private []byte) (*DV, []byte, diags) {
	t := c.resourceType(name)
	prior, err1 := cd.decode(priorState, t)
	planned, err2 := cd.decode(plannedState, t)
	cfg, err3 := cd.decode(config, t)
	if err := firstError(err1, err2, err3); err != nil {
		return priorState, nil, decodeError("the apply request", err)
	}
	v, priv, ds := c.applyResource(ctx, name, prior, planned, cfg, private)
	dv, eds := cd.encode(t, v)
	return dv, priv, append(ds, eds...)
}

// importState reads an existing object by its ID; imported is false if
// there is nothing to import.
func importState[DV any](ctx context.Context, c *core, cd codec[DV], name, id string) (state *DV, private []byte, ds diags, imported bool) {
	v, priv, ds := c.importResource(ctx, name, id)
	if ds.hasErrors() {
		return nil, nil, ds, false
	}
	dv, eds := cd.encode(c.resourceType(name), v)
	return dv, priv, append(ds, eds...), true
}

// readDataSource calls the function behind a data source.
func readDataSource[DV any](ctx context.Context, c *core, cd codec[DV], name string, config *DV) (*DV, diags) {
	t := c.dataType(name)
	cfg, err := cd.decode(config, t)
	if err != nil {
		return nil, decodeError("the configuration", err)
	}
	v, ds := c.readData(ctx, name, cfg)
	if ds.hasErrors() {
		return nil, ds
	}
	dv, eds := cd.encode(t, v)
	return dv, append(ds, eds...)
}

// call calls a provider-defined function with Terraform's arguments.
func call[DV any](ctx context.Context, c *core, cd codec[DV], name string, arguments []*DV) (*DV, *funcError) {
	f, ok := c.m.functions[name]
	if !ok {
		return nil, &funcError{text: fmt.Sprintf("provider %s has no function %q", c.m.name, name), arg: -1}
	}
	params := f.params()
	args := make([]tftypes.Value, len(arguments))
	for i, dv := range arguments {
		v, err := cd.decode(dv, f.argType(i, params))
		if err != nil {
			return nil, &funcError{text: err.Error(), arg: i}
		}
		args[i] = v
	}
	v, ferr := c.callFunction(ctx, name, args)
	if ferr != nil {
		return nil, ferr
	}
	dv, ds := cd.encode(f.result.tftype(), v)
	if ds != nil {
		return nil, &funcError{text: ds[0].detail, arg: -1}
	}
	return dv, nil
}
