package registry

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/pulumirpc"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// fakeLauncher is a Pulumi launcher that records what it was asked to
// start and starts a provider.Fake that records its configuration.
type fakeLauncher struct {
	launched   []string
	configured []resource.Object
}

func (f *fakeLauncher) fake() *provider.Fake {
	return &provider.Fake{ConfigureF: func(_ context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
		f.configured = append(f.configured, req.Inputs)
		return provider.ConfigureResponse{}, nil
	}}
}

func (f *fakeLauncher) Launch(_ context.Context, p plugin.Plugin) (provider.Provider, error) {
	f.launched = append(f.launched, "plugin "+p.Name)
	return f.fake(), nil
}

func (f *fakeLauncher) LaunchHosted(_ context.Context, name string, h Hosted) (provider.Provider, error) {
	f.launched = append(f.launched, "hosted "+name+" "+h.Path+" "+strings.Join(h.Args, " "))
	return f.fake(), nil
}

// TestHosted: a package the Source hosts is started from its command
// even when a plugin of that name is installed, and is configured with
// the hosted config beneath the engine's inputs; other packages are
// found as before.
func TestHosted(t *testing.T) {
	tr := newTree(t, "proj/.plinth/plugins/pulumi-resource-pulumi-nodejs", "proj/.plinth/plugins/pulumi-resource-aws")
	l := &fakeLauncher{}
	s := NewSource(tr.env, nil, l, nil)
	s.Finder.Probe = nil
	s.Hosted = func(pkg string) (Hosted, bool, error) {
		if pkg != "pulumi-nodejs" {
			return Hosted{}, false, nil
		}
		return Hosted{Path: "/usr/bin/node", Args: []string{"/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js"}, Config: resource.Object{
			"proj:greeting": resource.NewString("hello"),
			"proj:token":    resource.MakeSecret(resource.NewString("s3cret")),
			"proj:shared":   resource.NewString("from the stack"),
		}}, true, nil
	}
	ctx := context.Background()
	for _, pkg := range []string{"pulumi-nodejs", "aws"} {
		p, err := s.NewProvider(ctx, engine.ProviderRequest{Package: pkg})
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: resource.Object{"proj:shared": resource.NewString("from the program")}}); err != nil {
			t.Fatal(err)
		}
	}
	wantLaunched := []string{
		"hosted pulumi-nodejs /usr/bin/node /p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js",
		"plugin aws",
	}
	if diff := cmp.Diff(wantLaunched, l.launched); diff != "" {
		t.Errorf("launched (-want +got):\n%s", diff)
	}
	wantConfigured := []resource.Object{
		{
			"proj:greeting": resource.NewString("hello"),
			"proj:token":    resource.MakeSecret(resource.NewString("s3cret")),
			"proj:shared":   resource.NewString("from the program"),
		},
		{"proj:shared": resource.NewString("from the program")},
	}
	if diff := cmp.Diff(wantConfigured, l.configured, cmp.AllowUnexported(resource.Value{}), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("configured (-want +got):\n%s", diff)
	}
}

// TestHostedErrors: a failure to say how to start the hosted provider,
// and a launcher that cannot start one, are errors naming the package;
// neither falls back to an installed plugin, which could not run the
// program's serialised provider code.
func TestHostedErrors(t *testing.T) {
	tr := newTree(t, "proj/.plinth/plugins/pulumi-resource-pulumi-nodejs")
	missing := errors.New("the Node.js program needs @pulumi/pulumi")
	plain := LauncherFunc(func(context.Context, plugin.Plugin) (provider.Provider, error) { return &provider.Fake{}, nil })
	cases := map[string]struct {
		launcher Launcher
		hosted   func(string) (Hosted, bool, error)
		want     string
	}{
		"no command": {launcher: &fakeLauncher{}, hosted: func(string) (Hosted, bool, error) { return Hosted{}, true, missing }, want: missing.Error()},
		"no hosting": {launcher: plain, hosted: func(string) (Hosted, bool, error) { return Hosted{Path: "node"}, true, nil },
			want: "package pulumi-nodejs is served by a provider plinth hosts itself, but plinth cannot start Pulumi-protocol plugins here"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s := NewSource(tr.env, nil, c.launcher, nil)
			s.Finder.Probe = nil
			s.Hosted = c.hosted
			p, err := s.NewProvider(context.Background(), engine.ProviderRequest{Package: "pulumi-nodejs"})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("NewProvider = %v, %v; want an error saying %q", p, err, c.want)
			}
		})
	}
}

// TestHostedConfig: a hosted provider runs with the launcher's settings,
// its own command, and its variables after the environment's, so that
// they win over a variable of the same name that plinth inherited.
func TestHostedConfig(t *testing.T) {
	l := Pulumi(pulumirpc.Config{Dir: "/proj", Args: []string{"--tmpl"}})
	environ := func() []string { return []string{"HOME=/root", "PULUMI_CONFIG=stale"} }
	got := l.hostedConfig("pulumi-nodejs", Hosted{Path: "/usr/bin/node", Args: []string{"entry.js"}, Env: []string{"PULUMI_CONFIG={}"}}, environ)
	want := pulumirpc.Config{Name: "pulumi-nodejs", Path: "/usr/bin/node", Dir: "/proj", Args: []string{"--tmpl", "entry.js"},
		Env: []string{"HOME=/root", "PULUMI_CONFIG=stale", "PULUMI_CONFIG={}"}}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(pulumirpc.Config{}, "Log")); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
	if got := l.hostedConfig("pulumi-nodejs", Hosted{Path: "node"}, environ); got.Env != nil {
		t.Errorf("a hosted provider without variables of its own got environment %q; want plinth's (nil)", got.Env)
	}
}
