package tfplugin

import (
	"crypto/sha256"

	"github.com/plinth-iac/plinth/internal/provider"
)

// What a command that runs two operations (plinth up: a preview, then the
// update) needs to keep one provider process for both: whether the
// process is still there, and whether a configuration is exactly the one
// the provider already has, so that it need not (and, as Terraform never
// configures a provider twice, must not) be configured again. See
// internal/registry's carry.go.

// Exited reports whether the provider's process has exited.
func (p *Provider) Exited() bool { return p.client.Exited() }

// ConfiguredAs reports whether the provider was configured, with no
// unknown values, exactly as req would configure it: the same Terraform
// configuration, byte for byte as sent. Preview is not compared: a
// Terraform provider is configured the same way for a plan and an apply.
func (p *Provider) ConfiguredAs(req provider.ConfigureRequest) bool {
	c := p.config.Load()
	if c == nil || !c.known {
		return false
	}
	cb := configBuilder{ignore: engineKeys}
	b := p.schemas.provider.block
	cfg := cb.root(b, req.Inputs)
	if len(cb.failures) > 0 || !cfg.IsWhollyKnown() {
		return false
	}
	dv, err := encode(cfg, b.impliedType())
	return err == nil && sha256.Sum256(dv.msgpack) == c.sum
}
