package tfserve

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// readResource refreshes a resource with the SDK's Read; a resource that
// is gone reads as null.
func (c *core) readResource(ctx context.Context, name string, current tftypes.Value, private []byte) (tftypes.Value, []byte, diags) {
	r, ds := c.resource(name)
	if ds != nil {
		return current, private, ds
	}
	ins, outs, id, err := r.parts(current, private)
	if err != nil {
		return current, private, diags{errorDiag("Read", name, err)}
	}
	resp, err := c.p.Read(ctx, provider.ReadRequest{URN: r.urn(), ID: id, Inputs: ins, State: outs})
	if err != nil {
		return current, private, diags{errorDiag("Read", name, err)}
	}
	if resp.ID == "" {
		return tftypes.NewValue(r.obj.tftype(), nil), nil, nil
	}
	st, err := r.state(resp.Inputs, resp.Outputs, resource.NewString(resp.ID), nil)
	if err != nil {
		return current, private, diags{errorDiag("Read", name, err)}
	}
	return r.keepSpelling(st, current, ins), r.privateOf(resp.Inputs, resp.Outputs), nil
}

// keepSpelling keeps the recorded value of each input attribute that the
// provider read back as its checked input: a provider that normalises an
// input (a file mode "600" checked as "0600") reads the normalised form,
// while the state holds the configuration's spelling, which Terraform
// requires. The read value is the same thing spelled the provider's way;
// recording it would make every later plan change it back.
func (r *resourceModel) keepSpelling(read, current tftypes.Value, checked resource.Object) tftypes.Value {
	var rvals, cvals map[string]tftypes.Value
	if read.IsNull() || current.IsNull() || read.As(&rvals) != nil || current.As(&cvals) != nil {
		return read
	}
	vals, types := map[string]tftypes.Value{}, map[string]tftypes.Type{}
	for _, a := range r.obj.attrs {
		vals[a.tf] = rvals[a.tf]
		in, ok := checked[a.name]
		if a.input && ok && !rvals[a.tf].Equal(cvals[a.tf]) {
			if tv, err := toTF(in, a.t, tftypes.NewAttributePath()); err == nil && tv.Equal(rvals[a.tf]) {
				vals[a.tf] = cvals[a.tf]
			}
		}
		types[a.tf] = vals[a.tf].Type()
	}
	return tftypes.NewValue(tftypes.Object{AttributeTypes: types}, vals)
}

// importResource reads a resource by ID alone (the SDK's Read with no
// inputs and no state).
func (c *core) importResource(ctx context.Context, name, id string) (tftypes.Value, []byte, diags) {
	r, ds := c.resource(name)
	if ds != nil {
		return tftypes.Value{}, nil, ds
	}
	resp, err := c.p.Read(ctx, provider.ReadRequest{URN: r.urn(), ID: id})
	if err != nil {
		return tftypes.Value{}, nil, diags{errorDiag("Import", name, err)}
	}
	if resp.ID == "" {
		return tftypes.Value{}, nil, diags{{summary: "Cannot import non-existent remote object",
			detail: fmt.Sprintf("Provider %s found no %s with ID %q. Check the ID: it is what the resource's id attribute would hold.", c.m.name, name, id)}}
	}
	st, err := r.state(resp.Inputs, resp.Outputs, resource.NewString(resp.ID), nil)
	if err != nil {
		return tftypes.Value{}, nil, diags{errorDiag("Import", name, err)}
	}
	return st, r.privateOf(resp.Inputs, resp.Outputs), nil
}

// upgradeResource brings state written by schema version `version` (as
// JSON) to the current schema: as it is when the versions match, else
// through the SDK's UpgradeState, which sees the old state with the SDK's
// property names.
func (c *core) upgradeResource(ctx context.Context, name string, version int64, raw []byte, decode func(tftypes.Type) (tftypes.Value, error)) (tftypes.Value, diags) {
	r, ds := c.resource(name)
	if ds != nil {
		return tftypes.Value{}, ds
	}
	if version == r.version {
		v, err := decode(r.obj.tftype())
		if err != nil {
			return tftypes.Value{}, diags{errorDiag("UpgradeResourceState", name, err)}
		}
		return v, nil
	}
	old, err := oldState(raw, r.obj)
	if err != nil {
		return tftypes.Value{}, diags{errorDiag("UpgradeResourceState", name, err)}
	}
	up, ok := c.p.(provider.StateUpgradeProvider)
	if !ok {
		return tftypes.Value{}, diags{{summary: "Cannot upgrade state",
			detail: fmt.Sprintf("The state of %s has schema version %d, and provider %s cannot upgrade state to version %d.", name, version, c.m.name, r.version)}}
	}
	id := old["id"].Str()
	resp, err := up.UpgradeState(ctx, provider.UpgradeStateRequest{URN: r.urn(), ID: id, Version: version, State: old})
	if err != nil {
		return tftypes.Value{}, diags{errorDiag("UpgradeState", name, err)}
	}
	if v, ok := resp.State["id"]; ok && v.Kind() == resource.StringKind {
		id = v.Str()
	}
	st, err := r.state(resp.State, resp.State, resource.NewString(id), nil)
	if err != nil {
		return tftypes.Value{}, diags{errorDiag("UpgradeState", name, err)}
	}
	return st, nil
}

// oldState reads state JSON of an older schema: attribute names the
// current schema knows get their SDK names, the others are converted to
// lower camel case.
func oldState(raw []byte, t *vtype) (resource.Object, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("the recorded state is not a JSON object: %w", err)
	}
	out := resource.Object{}
	for k, x := range m {
		v, err := resource.FromGo(x)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", k, err)
		}
		if v.IsNull() {
			continue
		}
		name := camel(k)
		if a, ok := t.byTF[k]; ok {
			name = a.name
		}
		out[name] = v
	}
	return out, nil
}
