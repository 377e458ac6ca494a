package registry

import (
	"context"
	"fmt"
	"os"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/pulumirpc"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Hosted is a Pulumi-protocol provider that plinth starts with a command
// of its own instead of a plugin binary it finds: Pulumi's dynamic
// provider (package pulumi-nodejs), which is node running the program's
// own @pulumi/pulumi. Pulumi ships a script for it beside its CLI; plinth
// needs no Pulumi installation.
type Hosted struct {
	// Path is the executable (node) and Args its arguments before the
	// engine's address (the SDK's dynamic-provider entry).
	Path string
	Args []string
	// Env is added to the environment the launcher would give a plugin
	// (plinth's own unless it sets one); a variable set in both takes
	// Env's value.
	Env []string
	// Config lies beneath the inputs of every Configure of the provider:
	// Pulumi configures a dynamic provider with the whole stack config.
	// An input the engine passes under the same key wins.
	Config resource.Object
}

// HostedLauncher is a Launcher that can also start a hosted provider.
type HostedLauncher interface {
	LaunchHosted(ctx context.Context, name string, h Hosted) (provider.Provider, error)
}

// hosted starts the provider the Source hosts for a request's package, if
// it hosts one. A hosted provider wins over any plugin of the same name,
// and over the request's version constraint: only the program's own SDK
// can run the provider code the program serialised into its resources.
func (s *Source) hosted(ctx context.Context, req engine.ProviderRequest) (provider.Provider, bool, error) {
	if s.Hosted == nil {
		return nil, false, nil
	}
	h, ok, err := s.Hosted(req.Package)
	if err != nil || !ok {
		return nil, ok, err
	}
	l, ok := s.Pulumi.(HostedLauncher)
	if !ok {
		return nil, true, fmt.Errorf("package %s is served by a provider plinth hosts itself, but plinth cannot start Pulumi-protocol plugins here", req.Package)
	}
	prov, err := l.LaunchHosted(ctx, req.Package, h)
	if err != nil {
		return nil, true, fmt.Errorf("starting the %s provider (%s): %w", req.Package, h.Path, err)
	}
	return configured{Provider: prov, base: h.Config}, true, nil
}

// configured is a provider configured with base beneath whatever the
// engine configures it with.
type configured struct {
	provider.Provider
	base resource.Object
}

var _ provider.Provider = configured{}

// Configure implements provider.Provider.
func (p configured) Configure(ctx context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
	if len(p.base) > 0 {
		inputs := p.base.Copy()
		for k, v := range req.Inputs {
			inputs[k] = v
		}
		req.Inputs = inputs
	}
	return p.Provider.Configure(ctx, req)
}

// LaunchHosted implements HostedLauncher.
func (l PulumiLauncher) LaunchHosted(ctx context.Context, name string, h Hosted) (provider.Provider, error) {
	prov, err := pulumirpc.Launch(ctx, l.hostedConfig(name, h, os.Environ))
	if err != nil {
		return nil, err
	}
	return prov, nil
}

// hostedConfig is the launcher's configuration with a hosted provider's
// command, and its variables added to the environment (the template's,
// else environ's).
func (l PulumiLauncher) hostedConfig(name string, h Hosted, environ func() []string) pulumirpc.Config {
	c := l.cfg
	c.Name, c.Path = name, h.Path
	c.Args = append(append([]string(nil), c.Args...), h.Args...)
	if len(h.Env) > 0 {
		base := c.Env
		if base == nil {
			base = environ()
		}
		// exec.Cmd keeps the last of duplicate variables.
		c.Env = append(append([]string(nil), base...), h.Env...)
	}
	return c
}
