package tfserve

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/plinth-iac/plinth/sdk/provider"
)

// ephemeralModel is one SDK ephemeral resource: its arguments are
// configured attributes and its result computed ones.
type ephemeralModel struct {
	token string
	name  string
	doc   string
	obj   *vtype
}

// addEphemerals adds the ephemeral resources of a provider that has them.
func (m *model) addEphemerals(p provider.Provider, blocks bool) error {
	m.ephemerals = map[string]*ephemeralModel{}
	ep, ok := p.(provider.EphemeralProvider)
	if !ok {
		return nil
	}
	for tok, es := range ep.EphemeralSchemas() {
		e := &ephemeralModel{token: tok, name: typeName(tok), doc: es.Description, obj: objectOf(es.Inputs, es.Outputs, blocks, 0)}
		if other, dup := m.ephemerals[e.name]; dup {
			return fmt.Errorf("ephemeral resources %s and %s would both be named %s in Terraform; rename one", other.token, tok, e.name)
		}
		m.ephemerals[e.name] = e
	}
	return nil
}

func (c *core) ephemeral(name string) (*ephemeralModel, provider.EphemeralProvider, diags) {
	e, ok := c.m.ephemerals[name]
	ep, isEP := c.p.(provider.EphemeralProvider)
	if !ok || !isEP {
		return nil, nil, diags{{summary: "Unsupported ephemeral resource",
			detail: fmt.Sprintf("Provider %s has no ephemeral resource %q.", c.m.name, name)}}
	}
	return e, ep, nil
}

func (c *core) ephemeralType(name string) tftypes.Type {
	if e, ok := c.m.ephemerals[name]; ok {
		return e.obj.tftype()
	}
	return tftypes.DynamicPseudoType
}

// validateEphemeral checks an ephemeral resource's arguments.
func (c *core) validateEphemeral(ctx context.Context, name string, config tftypes.Value) diags {
	e, ep, ds := c.ephemeral(name)
	if ds != nil {
		return ds
	}
	args, err := inputsOf(e.obj, config)
	if err != nil {
		return diags{errorDiag("ValidateEphemeralResourceConfig", name, err)}
	}
	c.ensureValidatable(ctx)
	resp, err := ep.CheckEphemeral(ctx, provider.CheckEphemeralRequest{Token: e.token, Args: args})
	if err != nil {
		return nil // Open reports it, once configured
	}
	return append(deprecationDiags(args, e.obj), failureDiags(resp.Failures, e.obj, name)...)
}

// opened is an opened ephemeral resource in Terraform's terms.
type opened struct {
	result  tftypes.Value
	private []byte
	renewAt time.Time
}

// openEphemeral opens an ephemeral resource: its attributes are the
// arguments and the result.
func (c *core) openEphemeral(ctx context.Context, name string, config tftypes.Value) (opened, diags) {
	e, ep, ds := c.ephemeral(name)
	if ds != nil {
		return opened{}, ds
	}
	args, err := inputsOf(e.obj, config)
	if err != nil {
		return opened{}, diags{errorDiag("OpenEphemeralResource", name, err)}
	}
	resp, err := ep.OpenEphemeral(ctx, provider.OpenEphemeralRequest{Token: e.token, Args: args})
	if err != nil {
		return opened{}, diags{errorDiag("Open", name, err)}
	}
	if len(resp.Failures) > 0 {
		return opened{}, failureDiags(resp.Failures, e.obj, name)
	}
	out := args.Copy()
	for k, v := range resp.Result {
		out[k] = v
	}
	v, err := objectToTF(out, e.obj, tftypes.NewAttributePath())
	if err != nil {
		return opened{}, diags{errorDiag("OpenEphemeralResource", name, err)}
	}
	return opened{result: v, private: resp.Private, renewAt: resp.RenewAt}, nil
}

func (c *core) renewEphemeral(ctx context.Context, name string, private []byte) (provider.RenewEphemeralResponse, diags) {
	e, ep, ds := c.ephemeral(name)
	if ds != nil {
		return provider.RenewEphemeralResponse{}, ds
	}
	resp, err := ep.RenewEphemeral(ctx, provider.RenewEphemeralRequest{Token: e.token, Private: private})
	if err != nil {
		return resp, diags{errorDiag("Renew", name, err)}
	}
	return resp, nil
}

func (c *core) closeEphemeral(ctx context.Context, name string, private []byte) diags {
	e, ep, ds := c.ephemeral(name)
	if ds != nil {
		return ds
	}
	if _, err := ep.CloseEphemeral(ctx, provider.CloseEphemeralRequest{Token: e.token, Private: private}); err != nil {
		return diags{errorDiag("Close", name, err)}
	}
	return nil
}

// openEphemeralResource decodes, opens and encodes for either protocol.
func openEphemeralResource[DV any](ctx context.Context, c *core, cd codec[DV], name string, config *DV) (*DV, opened, diags) {
	t := c.ephemeralType(name)
	cfg, err := cd.decode(config, t)
	if err != nil {
		return nil, opened{}, decodeError("the configuration", err)
	}
	o, ds := c.openEphemeral(ctx, name, cfg)
	if ds.hasErrors() {
		return nil, opened{}, ds
	}
	dv, eds := cd.encode(t, o.result)
	return dv, o, append(ds, eds...)
}
