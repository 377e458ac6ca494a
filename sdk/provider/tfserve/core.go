package tfserve

import (
	"bytes"
	"context"
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

// state builds the object Terraform records: the ID; for an attribute the
// configuration sets, the configured value (Terraform requires it, and it
// keeps a value the provider normalised as the user wrote it); else the
// output, else the checked input. config is nil where there is none
// (refresh, import, upgrade).
func (r *resourceModel) state(inputs, outputs resource.Object, id resource.Value, config resource.Object) (tftypes.Value, error) {
	o := resource.Object{}
	for _, a := range r.obj.attrs {
		cv, configured := config[a.name]
		switch {
		case a.id:
			o[a.name] = id
		case config != nil && a.input && (!a.computed || configured):
			if configured {
				o[a.name] = cv
			}
		case a.output && has(outputs, a.name):
			o[a.name] = outputs[a.name]
		case a.input && has(inputs, a.name):
			o[a.name] = inputs[a.name]
		}
	}
	return objectToTF(o, r.obj, tftypes.NewAttributePath())
}

func has(o resource.Object, name string) bool {
	v, ok := o[name]
	return ok && !v.IsNull()
}

// privateMagic starts the private state tfserve writes: the SDK's checked
// inputs, which Terraform's single state object cannot tell from the
// outputs of the same name.
var privateMagic = []byte("plinth-inputs/1\n")

func (r *resourceModel) privateOf(inputs resource.Object) []byte {
	v, err := objectToTF(inputs, r.obj, tftypes.NewAttributePath())
	if err != nil || !v.IsFullyKnown() {
		return nil
	}
	dv, err := tfprotov6.NewDynamicValue(r.obj.tftype(), v)
	if err != nil {
		return nil
	}
	return append(append([]byte{}, privateMagic...), dv.MsgPack...)
}

func (r *resourceModel) privateInputs(private []byte) (resource.Object, bool) {
	if !bytes.HasPrefix(private, privateMagic) {
		return nil, false
	}
	v, err := (&tfprotov6.DynamicValue{MsgPack: private[len(privateMagic):]}).Unmarshal(r.obj.tftype())
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

// ensureValidatable configures the provider with the empty configuration
// if Terraform has not configured it: Terraform validates configuration
// (terraform validate) and calls provider-defined functions without
// configuring the provider, while the SDK checks inputs and calls
// functions only once configured. A configuration that cannot be
// empty leaves the provider unconfigured and validation to the plan.
func (c *core) ensureValidatable(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.configured || c.validating {
		return
	}
	c.validating = true
	checked, err := c.p.CheckConfig(ctx, provider.CheckRequest{News: resource.Object{}})
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
	return failureDiags(resp.Failures, r.obj, r.name)
}
