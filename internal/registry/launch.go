package registry

import (
	"context"

	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/mu"
	"github.com/plinth-iac/plinth/internal/provider/pulumirpc"
	"github.com/plinth-iac/plinth/internal/provider/tfplugin"
)

// Launcher starts a plugin and returns it as an unconfigured provider.
type Launcher interface {
	Launch(ctx context.Context, p plugin.Plugin) (provider.Provider, error)
}

// LauncherFunc adapts a function to a Launcher.
type LauncherFunc func(ctx context.Context, p plugin.Plugin) (provider.Provider, error)

// Launch implements Launcher.
func (f LauncherFunc) Launch(ctx context.Context, p plugin.Plugin) (provider.Provider, error) {
	return f(ctx, p)
}

// PulumiLauncher launches Pulumi-protocol plugins through pulumirpc:
// plugins internal/plugin found (Launch) and providers plinth hosts
// (LaunchHosted).
type PulumiLauncher struct{ cfg pulumirpc.Config }

var (
	_ Launcher       = PulumiLauncher{}
	_ HostedLauncher = PulumiLauncher{}
)

// Pulumi launches Pulumi-protocol plugins through pulumirpc. cfg is a
// template: Name and Path come from each plugin.
func Pulumi(cfg pulumirpc.Config) PulumiLauncher { return PulumiLauncher{cfg: cfg} }

// Launch implements Launcher.
func (l PulumiLauncher) Launch(ctx context.Context, p plugin.Plugin) (provider.Provider, error) {
	c := l.cfg
	c.Name, c.Path = p.Name, p.Path
	prov, err := pulumirpc.Launch(ctx, c)
	if err != nil {
		return nil, err
	}
	return prov, nil
}

// Terraform launches Terraform providers through tfplugin. cfg is a
// template: Name, Path and Version come from each plugin.
func Terraform(cfg tfplugin.Config) Launcher {
	return LauncherFunc(func(ctx context.Context, p plugin.Plugin) (provider.Provider, error) {
		c := cfg
		c.Name, c.Path, c.Version = p.Name, p.Path, p.Version
		prov, err := tfplugin.Start(ctx, c)
		if err != nil {
			return nil, err
		}
		return prov, nil
	})
}

// Mu launches Mu-protocol providers (mu-resource-<name>) through
// internal/provider/mu. cfg is a template: Name, Path and Version come
// from each plugin.
func Mu(cfg mu.Config) Launcher {
	return LauncherFunc(func(ctx context.Context, p plugin.Plugin) (provider.Provider, error) {
		c := cfg
		c.Name, c.Path, c.Version = p.Name, p.Path, p.Version
		prov, err := mu.Launch(ctx, c)
		if err != nil {
			return nil, err
		}
		return prov, nil
	})
}
