package registry

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider"
)

// tree lays out plugin binaries under a temporary root: a project, a
// home, PLINTH_PLUGIN_PATH dirs and Terraform's trees.
type tree struct {
	root string
	env  plugin.Env
}

func newTree(t *testing.T, files ...string) tree {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		path := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	vars := map[string]string{
		"PLINTH_PLUGIN_PATH":  filepath.Join(root, "path1") + ":" + filepath.Join(root, "path2"),
		"TF_PLUGIN_CACHE_DIR": filepath.Join(root, "tfcache"),
	}
	env := plugin.Env{ProjectDir: filepath.Join(root, "proj"), Home: filepath.Join(root, "home"),
		Getenv: func(k string) string { return vars[k] }, GOOS: "linux", GOARCH: "amd64"}
	return tree{root: root, env: env}
}

// everyLayout has a plugin of each kind the source must pick between.
var everyLayout = []string{
	"proj/.plinth/plugins/pulumi-resource-aws",
	"proj/.plinth/plugins/terraform-provider-random_v3.5.0_x5",
	"path2/resource-aws-v6.2.0/pulumi-resource-aws",
	"home/.pulumi/plugins/resource-aws-v6.1.0/pulumi-resource-aws",
	"home/.pulumi/plugins/resource-aws-v7.0.0/pulumi-resource-aws",
	"proj/.terraform/providers/registry.terraform.io/hashicorp/random/3.6.2/linux_amd64/terraform-provider-random_v3.6.2_x5",
	"tfcache/registry.terraform.io/hashicorp/random/3.6.0/linux_amd64/terraform-provider-random_v3.6.0_x5",
}

func TestSource(t *testing.T) {
	tr := newTree(t, everyLayout...)
	var launched []string
	launcher := func(kind string) Launcher {
		return LauncherFunc(func(_ context.Context, p plugin.Plugin) (provider.Provider, error) {
			launched = append(launched, kind+" "+p.Name+" "+p.Version)
			return &provider.Fake{}, nil
		})
	}
	builtin := &provider.Fake{}
	s := NewSource(tr.env, map[string]Builtin{"plinth": {Version: "0.1.0", New: func() (provider.Provider, error) { return builtin, nil }}},
		launcher("pulumi"), launcher("terraform"))
	s.Finder.Probe = nil // no real plugins to ask
	ctx := context.Background()
	if p, err := s.NewProvider(ctx, engine.ProviderRequest{Package: "plinth"}); err != nil || p != builtin {
		t.Errorf("built-in: %v, %v", p, err)
	}
	_, err := s.NewProvider(ctx, engine.ProviderRequest{Package: "plinth", Version: ">= 1.0"})
	if err == nil {
		t.Error("a built-in of the wrong version was used, or a plugin appeared")
	} else if want := "found:\n  built-in plinth 0.1.0 (built in)\n"; !strings.Contains(err.Error(), want) {
		t.Errorf("the error does not list the built-in that did not fit (want %q):\n%v", want, err)
	}
	for _, req := range []engine.ProviderRequest{
		{Package: "random", Source: "hashicorp/random"},
		{Package: "aws", Version: "~> 6.1.0"},
		{Package: "random", Version: "3.5.0"},
	} {
		if _, err := s.NewProvider(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"terraform random 3.6.2", "pulumi aws 6.1.0", "terraform random 3.5.0"}
	if diff := cmp.Diff(want, launched); diff != "" {
		t.Errorf("launched (-want +got):\n%s", diff)
	}
}

// TestSourceNewestWinsOverBuiltin: the built-in provider competes with
// installed plugins by version; an installed plugin as new as the built-in
// wins the tie, an older one or one whose version is unknown does not.
func TestSourceNewestWinsOverBuiltin(t *testing.T) {
	tests := map[string]struct {
		files   []string
		version string // the request's constraint
		want    string
	}{
		"no plugin":                {want: "builtin"},
		"same version":             {files: []string{"path1/resource-plinth-v0.1.0/pulumi-resource-plinth"}, want: "plugin 0.1.0"},
		"newer":                    {files: []string{"path1/resource-plinth-v0.2.0/pulumi-resource-plinth"}, want: "plugin 0.2.0"},
		"older":                    {files: []string{"path1/resource-plinth-v0.0.9/pulumi-resource-plinth"}, want: "builtin"},
		"bare, asked its version":  {files: []string{"path1/pulumi-resource-plinth"}, want: "plugin 0.1.0"},
		"constraint only a plugin": {files: []string{"path1/resource-plinth-v0.2.0/pulumi-resource-plinth"}, version: ">= 0.2", want: "plugin 0.2.0"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tr := newTree(t, tc.files...)
			var got string
			s := NewSource(tr.env, map[string]Builtin{"plinth": {Version: "0.1.0", New: func() (provider.Provider, error) {
				got = "builtin"
				return &provider.Fake{}, nil
			}}}, LauncherFunc(func(_ context.Context, p plugin.Plugin) (provider.Provider, error) {
				got = "plugin " + p.Version
				return &provider.Fake{}, nil
			}), nil)
			s.Finder.Probe = func(context.Context, plugin.Plugin) (string, error) { return "0.1.0", nil }
			if _, err := s.NewProvider(context.Background(), engine.ProviderRequest{Package: "plinth", Version: tc.version}); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// TestSourceMu: a mu-resource-<name> binary is started by the Mu launcher,
// and with only the Pulumi launcher wired it is not found at all.
func TestSourceMu(t *testing.T) {
	tr := newTree(t, "path1/mu-resource-store")
	var launched []string
	launcher := func(kind string) Launcher {
		return LauncherFunc(func(_ context.Context, p plugin.Plugin) (provider.Provider, error) {
			launched = append(launched, kind+" "+p.Name)
			return &provider.Fake{}, nil
		})
	}
	s := NewSource(tr.env, nil, launcher("pulumi"), launcher("terraform"))
	s.Mu = launcher("mu")
	if _, err := s.NewProvider(context.Background(), engine.ProviderRequest{Package: "store"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"mu store"}, launched); diff != "" {
		t.Errorf("launched (-want +got):\n%s", diff)
	}
	pulumiOnly := NewSource(tr.env, nil, launcher("pulumi"), nil)
	if _, err := pulumiOnly.NewProvider(context.Background(), engine.ProviderRequest{Package: "store"}); err == nil {
		t.Error("a Mu provider was found with no Mu launcher wired")
	}
}

// TestSourceInstallsMissingPulumiPlugins: a Pulumi plugin named by exact
// version that is not on disk is installed (with the request's download
// URL) and then launched; a range, a Terraform provider and a version on
// disk are not installed.
func TestSourceInstallsMissingPulumiPlugins(t *testing.T) {
	// Without the bare pulumi-resource-aws, whose version only it knows.
	tr := newTree(t, everyLayout[1:]...)
	var launched, installed []string
	s := NewSource(tr.env, nil, LauncherFunc(func(_ context.Context, p plugin.Plugin) (provider.Provider, error) {
		launched = append(launched, p.Name+" "+p.Version)
		return &provider.Fake{}, nil
	}), nil)
	s.Finder.Probe = nil
	s.Install = func(_ context.Context, pkg, version, url string) error {
		installed = append(installed, pkg+" "+version+" "+url)
		if pkg == "gcp" {
			return errors.New("no such release")
		}
		path := filepath.Join(tr.root, "home/.pulumi/plugins/resource-"+pkg+"-v"+strings.TrimPrefix(version, "v")+"/pulumi-resource-"+pkg)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755)
	}
	ctx := context.Background()
	for _, req := range []engine.ProviderRequest{
		{Package: "aws", Version: "6.1.0"},
		{Package: "aws", Version: "v6.3.0", DownloadURL: "https://example.com/aws"},
		{Package: "aws", Version: "6.3.0"},
	} {
		if _, err := s.NewProvider(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	for _, req := range []engine.ProviderRequest{{Package: "aws", Version: ">= 8.0"}, {Package: "gcp", Version: "1.0.0"}} {
		if _, err := s.NewProvider(ctx, req); err == nil {
			t.Errorf("%v: a provider was made", req)
		}
	}
	if diff := cmp.Diff([]string{"aws v6.3.0 https://example.com/aws", "gcp 1.0.0 "}, installed); diff != "" {
		t.Errorf("installed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"aws 6.1.0", "aws 6.3.0", "aws 6.3.0"}, launched); diff != "" {
		t.Errorf("launched (-want +got):\n%s", diff)
	}
}
