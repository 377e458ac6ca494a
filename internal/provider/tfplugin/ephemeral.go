package tfplugin

import (
	"context"
	"fmt"

	"github.com/plinth-iac/plinth/internal/provider"
)

var _ provider.Ephemeral = (*Provider)(nil)

// OpenEphemeral implements provider.Ephemeral (ValidateEphemeralResourceConfig,
// then OpenEphemeralResource; the token names the ephemeral resource
// type, random_password as random:index:random_password).
func (p *Provider) OpenEphemeral(ctx context.Context, req provider.OpenEphemeralRequest) (provider.OpenEphemeralResponse, error) {
	name := typeName(req.Token)
	if !p.configured.Load() {
		return provider.OpenEphemeralResponse{}, fmt.Errorf("open of %s: provider %s: %w", name, p.cfg.Name, errNotConfigured)
	}
	s, ok := p.schemas.ephemerals[name]
	if !ok {
		return provider.OpenEphemeralResponse{}, fmt.Errorf("provider %s has no ephemeral resource %s (token %s); check the name against the provider's documentation",
			p.cfg.Name, name, req.Token)
	}
	t := target{name: name, s: s, ty: s.block.impliedType(), op: "open of ephemeral resource " + name}
	cb := configBuilder{strict: true}
	cfg := cb.root(s.block, req.Config)
	if len(cb.failures) > 0 {
		return provider.OpenEphemeralResponse{Failures: cb.failures}, nil
	}
	dv, err := encode(cfg, t.ty)
	if err != nil {
		return provider.OpenEphemeralResponse{}, err
	}
	diags, err := p.wire.validateEphemeralConfig(ctx, name, dv)
	if err != nil {
		return provider.OpenEphemeralResponse{}, p.rpcError("ValidateEphemeralResourceConfig for "+t.op, err)
	}
	if fs := p.failures("validation for "+t.op, diags); len(fs) > 0 {
		return provider.OpenEphemeralResponse{Failures: fs}, nil
	}
	return p.open(ctx, t, dv, req)
}

// open calls OpenEphemeralResource and decodes its result.
func (p *Provider) open(ctx context.Context, t target, dv dynamicValue, req provider.OpenEphemeralRequest) (provider.OpenEphemeralResponse, error) {
	resp, err := p.wire.openEphemeral(ctx, t.name, dv)
	if err != nil {
		return provider.OpenEphemeralResponse{}, p.rpcError("OpenEphemeralResource for "+t.op, err)
	}
	if err := p.diagnose("OpenEphemeralResource for "+t.op, resp.diags); err != nil {
		return provider.OpenEphemeralResponse{}, err
	}
	if resp.deferred != "" {
		return provider.OpenEphemeralResponse{}, fmt.Errorf("%s: provider %s deferred it (%s); plinth does not defer", t.op, p.cfg.Name, resp.deferred)
	}
	result, err := decode(resp.result, t.ty)
	if err != nil {
		return provider.OpenEphemeralResponse{}, fmt.Errorf("%s: provider %s returned an invalid result: %w", t.op, p.cfg.Name, err)
	}
	return provider.OpenEphemeralResponse{Result: t.outputs(result, req.Config), Private: resp.private, RenewAt: resp.renewAt}, nil
}

// RenewEphemeral implements provider.Ephemeral (RenewEphemeralResource).
func (p *Provider) RenewEphemeral(ctx context.Context, req provider.RenewEphemeralRequest) (provider.RenewEphemeralResponse, error) {
	name := typeName(req.Token)
	resp, err := p.wire.renewEphemeral(ctx, name, req.Private)
	if err != nil {
		return provider.RenewEphemeralResponse{}, p.rpcError("RenewEphemeralResource for "+name, err)
	}
	if err := p.diagnose("RenewEphemeralResource for "+name, resp.diags); err != nil {
		return provider.RenewEphemeralResponse{}, err
	}
	return provider.RenewEphemeralResponse{Private: resp.private, RenewAt: resp.renewAt}, nil
}

// CloseEphemeral implements provider.Ephemeral (CloseEphemeralResource).
func (p *Provider) CloseEphemeral(ctx context.Context, req provider.CloseEphemeralRequest) error {
	name := typeName(req.Token)
	diags, err := p.wire.closeEphemeral(ctx, name, req.Private)
	if err != nil {
		return p.rpcError("CloseEphemeralResource for "+name, err)
	}
	return p.diagnose("CloseEphemeralResource for "+name, diags)
}
