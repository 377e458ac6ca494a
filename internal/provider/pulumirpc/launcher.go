package pulumirpc

import (
	"context"

	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider"
)

// Launcher starts Pulumi-protocol plugins that internal/plugin found. Its
// Config is a template: Name and Path come from each plugin.
type Launcher struct {
	Config Config
}

var _ plugin.Launcher = Launcher{}

// Launch implements plugin.Launcher.
func (l Launcher) Launch(ctx context.Context, p plugin.Plugin) (provider.Provider, error) {
	cfg := l.Config
	cfg.Name, cfg.Path = p.Name, p.Path
	return Launch(ctx, cfg)
}
