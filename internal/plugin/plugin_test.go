package plugin

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// tree lays out a scenario: a project, a home, PLINTH_PLUGIN_PATH dirs,
// Pulumi's cache and Terraform's trees.
type tree struct {
	root string
	env  Env
}

func newTree(t *testing.T, files ...string) tree {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		path := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o755)
		if strings.HasSuffix(f, ".partial") || strings.Contains(f, "noexec") {
			mode = 0o644
		}
		if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 1\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	vars := map[string]string{
		"PLINTH_PLUGIN_PATH":  filepath.Join(root, "path1") + ":" + filepath.Join(root, "path2"),
		"TF_PLUGIN_CACHE_DIR": filepath.Join(root, "tfcache"),
	}
	env := Env{ProjectDir: filepath.Join(root, "proj"), Home: filepath.Join(root, "home"),
		Getenv: func(k string) string { return vars[k] }, GOOS: "linux", GOARCH: "amd64"}
	return tree{root: root, env: env}
}

// rel shortens paths for comparison.
func (tr tree) rel(ps []Plugin) []Plugin {
	out := make([]Plugin, len(ps))
	for i, p := range ps {
		p.Path, _ = filepath.Rel(tr.root, p.Path)
		out[i] = p
	}
	return out
}

var everyLayout = []string{
	"proj/.plinth/plugins/pulumi-resource-aws",
	"proj/.plinth/plugins/terraform-provider-random_v3.5.0_x5",
	"proj/.plinth/plugins/README.md",
	"path1/terraform-provider-null",
	"path2/resource-aws-v6.2.0/pulumi-resource-aws",
	"home/.plinth/plugins/pulumi-language-yaml",
	"home/.pulumi/plugins/resource-aws-v6.1.0/pulumi-resource-aws",
	"home/.pulumi/plugins/resource-aws-v7.0.0/pulumi-resource-aws",
	"home/.pulumi/plugins/resource-aws-v7.0.0.partial",
	"home/.pulumi/plugins/resource-azure-native-v2.0.0/pulumi-resource-azure-native",
	"home/.pulumi/plugins/resource-gcp-v1.0.0/noexec/pulumi-resource-gcp",
	"proj/.terraform/providers/registry.terraform.io/hashicorp/random/3.6.2/linux_amd64/terraform-provider-random_v3.6.2_x5",
	"tfcache/registry.terraform.io/hashicorp/random/3.6.0/linux_amd64/terraform-provider-random_v3.6.0_x5",
	"tfcache/registry.terraform.io/hashicorp/random/3.7.0/darwin_arm64/terraform-provider-random_v3.7.0_x5",
	"home/.terraform.d/plugins/example.com/acme/tls/1.0.0/linux_amd64/terraform-provider-tls",
	"home/.terraform.d/plugins/linux_amd64/terraform-provider-local_v2.1.0",
}

func TestDiscover(t *testing.T) {
	tr := newTree(t, everyLayout...)
	got := tr.rel(Discover(tr.env))
	res, pul, tf := KindResource, ProtocolPulumi, ProtocolTerraform
	want := []Plugin{
		{Name: "aws", Kind: res, Protocol: pul, Path: "proj/.plinth/plugins/pulumi-resource-aws", Origin: OriginProject},
		{Name: "random", Kind: res, Protocol: tf, Version: "3.5.0", Path: "proj/.plinth/plugins/terraform-provider-random_v3.5.0_x5", Origin: OriginProject},
		{Name: "null", Kind: res, Protocol: tf, Path: "path1/terraform-provider-null", Origin: OriginPluginPath},
		{Name: "aws", Kind: res, Protocol: pul, Version: "6.2.0", Path: "path2/resource-aws-v6.2.0/pulumi-resource-aws", Origin: OriginPluginPath},
		{Name: "yaml", Kind: KindLanguage, Protocol: pul, Path: "home/.plinth/plugins/pulumi-language-yaml", Origin: OriginHome},
		{Name: "aws", Kind: res, Protocol: pul, Version: "6.1.0", Path: "home/.pulumi/plugins/resource-aws-v6.1.0/pulumi-resource-aws", Origin: OriginPulumi},
		{Name: "azure-native", Kind: res, Protocol: pul, Version: "2.0.0", Path: "home/.pulumi/plugins/resource-azure-native-v2.0.0/pulumi-resource-azure-native", Origin: OriginPulumi},
		{Name: "random", Kind: res, Protocol: tf, Version: "3.6.2", Address: "registry.terraform.io/hashicorp/random",
			Path: "proj/.terraform/providers/registry.terraform.io/hashicorp/random/3.6.2/linux_amd64/terraform-provider-random_v3.6.2_x5", Origin: OriginTerraformLocal},
		{Name: "random", Kind: res, Protocol: tf, Version: "3.6.0", Address: "registry.terraform.io/hashicorp/random",
			Path: "tfcache/registry.terraform.io/hashicorp/random/3.6.0/linux_amd64/terraform-provider-random_v3.6.0_x5", Origin: OriginTerraformCache},
		{Name: "local", Kind: res, Protocol: tf, Version: "2.1.0", Path: "home/.terraform.d/plugins/linux_amd64/terraform-provider-local_v2.1.0", Origin: OriginTerraformHome},
		{Name: "tls", Kind: res, Protocol: tf, Version: "1.0.0", Address: "example.com/acme/tls",
			Path: "home/.terraform.d/plugins/example.com/acme/tls/1.0.0/linux_amd64/terraform-provider-tls", Origin: OriginTerraformHome},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// fakeProbe answers versions by path and counts questions.
type fakeProbe struct {
	mu       sync.Mutex
	versions map[string]string
	asked    []string
}

func (f *fakeProbe) probe(_ context.Context, p Plugin) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, filepath.Base(filepath.Dir(p.Path))+"/"+filepath.Base(p.Path))
	if v, ok := f.versions[filepath.Base(filepath.Dir(filepath.Dir(p.Path)))]; ok {
		return v, nil
	}
	return "", errors.New("no answer")
}

func TestFind(t *testing.T) {
	tests := map[string]struct {
		req      Request
		want     string // path relative to the tree
		wantVer  string
		probed   bool
		notFound bool
		warns    bool
	}{
		"newest, asking the bare binary":       {req: Request{Name: "aws"}, want: "proj/.plinth/plugins/pulumi-resource-aws", wantVer: "6.5.0", probed: true},
		"pulumi preferred to terraform":        {req: Request{Name: "random", Protocol: ProtocolPulumi}, notFound: true},
		"constraint":                           {req: Request{Name: "aws", Version: ">= 6.0, < 6.2"}, want: "home/.pulumi/plugins/resource-aws-v6.1.0/pulumi-resource-aws", wantVer: "6.1.0", probed: true},
		"exact version":                        {req: Request{Name: "aws", Version: "6.2.0"}, want: "path2/resource-aws-v6.2.0/pulumi-resource-aws", wantVer: "6.2.0", probed: true},
		"bare binary answers newest":           {req: Request{Name: "aws", Version: ">= 6.3"}, want: "proj/.plinth/plugins/pulumi-resource-aws", wantVer: "6.5.0", probed: true},
		"terraform pessimistic":                {req: Request{Name: "random", Version: "~> 3.6.0"}, want: "proj/.terraform/providers/registry.terraform.io/hashicorp/random/3.6.2/linux_amd64/terraform-provider-random_v3.6.2_x5", wantVer: "3.6.2"},
		"terraform older":                      {req: Request{Name: "random", Version: "< 3.6"}, want: "proj/.plinth/plugins/terraform-provider-random_v3.5.0_x5", wantVer: "3.5.0"},
		"source address":                       {req: Request{Name: "random", Source: "hashicorp/random"}, want: "proj/.terraform/providers/registry.terraform.io/hashicorp/random/3.6.2/linux_amd64/terraform-provider-random_v3.6.2_x5", wantVer: "3.6.2"},
		"other namespace":                      {req: Request{Name: "tls", Source: "hashicorp/tls"}, notFound: true},
		"unversioned terraform, no constraint": {req: Request{Name: "null"}, want: "path1/terraform-provider-null"},
		"unversioned terraform, constraint":    {req: Request{Name: "null", Version: ">= 1.0"}, want: "path1/terraform-provider-null", warns: true},
		"nothing at all":                       {req: Request{Name: "kubernetes"}, notFound: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tr := newTree(t, append(everyLayout, "path2/resource-aws-v6.5.0/noexec")...)
			fp := &fakeProbe{versions: map[string]string{".plinth": "6.5.0"}}
			var warnings []string
			f := &Finder{Env: tr.env, Probe: fp.probe, Warn: func(m string) { warnings = append(warnings, m) }}
			got, err := f.Find(context.Background(), tc.req)
			if tc.warns != (len(warnings) == 1) || (tc.warns && !strings.Contains(warnings[0], "terraform-provider-null")) {
				t.Errorf("warnings %q, want one naming the binary: %v", warnings, tc.warns)
			}
			if tc.notFound {
				var nf *NotFoundError
				if !errors.As(err, &nf) {
					t.Fatalf("Find = %v, %v; want a NotFoundError", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rel, _ := filepath.Rel(tr.root, got.Path); rel != tc.want || got.Version != tc.wantVer {
				t.Errorf("Find = %s %s, want %s %s", rel, got.Version, tc.want, tc.wantVer)
			}
			if (len(fp.asked) > 0) != tc.probed {
				t.Errorf("probed %v, want probing %v", fp.asked, tc.probed)
			}
		})
	}
}

// TestFindProbesLazily: a lone bare plugin with no constraint is not
// launched; asking again does not launch it twice.
func TestFindProbesLazily(t *testing.T) {
	tr := newTree(t, "proj/.plinth/plugins/pulumi-resource-solo")
	fp := &fakeProbe{versions: map[string]string{".plinth": "1.0.0"}}
	f := &Finder{Env: tr.env, Probe: fp.probe}
	if _, err := f.Find(context.Background(), Request{Name: "solo"}); err != nil || len(fp.asked) != 0 {
		t.Fatalf("Find without a constraint: err %v, probed %v", err, fp.asked)
	}
	for range 2 {
		p, err := f.Find(context.Background(), Request{Name: "solo", Version: ">= 1.0"})
		if err != nil || p.Version != "1.0.0" {
			t.Fatalf("Find = %v, %v", p, err)
		}
	}
	if len(fp.asked) != 1 {
		t.Errorf("probed %d times, want once", len(fp.asked))
	}
}

func TestNotFoundMessage(t *testing.T) {
	tr := newTree(t, everyLayout...)
	f := &Finder{Env: tr.env}
	_, err := f.Find(context.Background(), Request{Name: "random", Version: ">= 4.0"})
	msg := err.Error()
	for _, want := range []string{
		`no plugin for package "random" matches version ">= 4.0"; found:`,
		"terraform-provider random 3.6.0 at " + filepath.Join(tr.root, "tfcache"),
		"(TF_PLUGIN_CACHE_DIR)",
		"plinth looked in:",
		filepath.Join(tr.root, "proj", ".plinth", "plugins") + " (project)",
		"Install pulumi-resource-random or terraform-provider-random_v<version>",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "plinth init") {
		t.Errorf("a request without a Terraform source address suggests plinth init:\n%s", msg)
	}
	_, err = f.Find(context.Background(), Request{Name: "random", Version: ">= 4.0", Source: "hashicorp/random"})
	if want := "run plinth init (or terraform init) to install provider hashicorp/random from its registry"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a Terraform provider's message lacks %q:\n%v", want, err)
	}
	if _, err := f.Find(context.Background(), Request{Name: "random", Version: "not a version"}); err == nil || !strings.Contains(err.Error(), `invalid version constraint "not a version"`) {
		t.Errorf("bad constraint: %v", err)
	}
}

func TestList(t *testing.T) {
	tr := newTree(t, "path1/terraform-provider-b_v1.0.0", "path1/terraform-provider-b_v1.10.0", "path2/pulumi-resource-a", "path2/resource-a-v2.0.0/pulumi-resource-a")
	fp := &fakeProbe{versions: map[string]string{filepath.Base(tr.root): "3.0.0"}}
	f := &Finder{Env: tr.env, Probe: fp.probe}
	var got []string
	for _, p := range f.List(context.Background(), true) {
		got = append(got, p.Name+" "+string(p.Protocol)+" "+p.Version)
	}
	want := []string{"a pulumirpc 3.0.0", "a pulumirpc 2.0.0", "b tfplugin 1.10.0", "b tfplugin 1.0.0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestFindPrefersPulumi: with no source given, a Pulumi-protocol plugin
// beats a newer Terraform provider of the same package.
func TestFindPrefersPulumi(t *testing.T) {
	tr := newTree(t, "path1/terraform-provider-random_v3.6.0", "path2/resource-random-v1.0.0/pulumi-resource-random")
	f := &Finder{Env: tr.env}
	p, err := f.Find(context.Background(), Request{Name: "random"})
	if err != nil || p.Protocol != ProtocolPulumi {
		t.Errorf("Find = %v, %v; want the Pulumi plugin", p, err)
	}
	p, err = f.Find(context.Background(), Request{Name: "random", Source: "hashicorp/random"})
	if err != nil || p.Protocol != ProtocolTerraform {
		t.Errorf("Find with a source = %v, %v; want the Terraform provider", p, err)
	}
}

func TestHandshakeTimeout(t *testing.T) {
	tests := map[string]struct {
		value   string
		want    time.Duration
		wantErr bool
	}{
		"unset":    {"", DefaultHandshakeTimeout, false},
		"duration": {"90s", 90 * time.Second, false},
		"seconds":  {"2.5", 2500 * time.Millisecond, false},
		"zero":     {"0s", 0, true},
		"garbage":  {"soon", 0, true},
	}
	for name, tc := range tests {
		got, err := HandshakeTimeout(func(string) string { return tc.value })
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("%s: HandshakeTimeout(%q) = %v, %v; want %v (error %v)", name, tc.value, got, err, tc.want, tc.wantErr)
		}
	}
}

// TestDiscoverMu: a binary named mu-resource-<name>[_v<version>] in a
// plugin directory is a Mu-protocol provider, and a request restricted to
// that protocol finds it.
func TestDiscoverMu(t *testing.T) {
	tr := newTree(t, "proj/.plinth/plugins/mu-resource-store", "path1/mu-resource-store_v1.2.0", "path1/mu-resource-")
	got := tr.rel(Discover(tr.env))
	want := []Plugin{
		{Name: "store", Kind: KindResource, Protocol: ProtocolMu, Path: "proj/.plinth/plugins/mu-resource-store", Origin: OriginProject},
		{Name: "store", Kind: KindResource, Protocol: ProtocolMu, Version: "1.2.0", Path: "path1/mu-resource-store_v1.2.0", Origin: OriginPluginPath},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	f := &Finder{Env: tr.env}
	p, err := f.Find(context.Background(), Request{Name: "store", Version: ">= 1.0", Protocol: ProtocolMu})
	if err != nil {
		t.Fatal(err)
	}
	if p.Version != "1.2.0" || p.String() != "mu-resource store 1.2.0 at "+p.Path {
		t.Errorf("found %s", p)
	}
}

// TestFindNamesAPluginThatIsNotExecutable: a plugin file without the
// execute bit, in each layout, is named with the chmod that fixes it
// rather than reported as no plugin at all.
func TestFindNamesAPluginThatIsNotExecutable(t *testing.T) {
	const fix = "found %[1]s but it is not executable: chmod +x %[1]s"
	tests := map[string]struct {
		file    string // relative to the tree, written with mode 0644
		also    []string
		req     Request
		summary string
		lines   []string // the message's lines, in order; %[1]s is the file's path
	}{
		"bare binary in the project": {file: "proj/.plinth/plugins/pulumi-resource-solo", req: Request{Name: "solo"},
			summary: "Provider plugin not executable", lines: []string{fix}},
		"pulumi cache": {file: "home/.pulumi/plugins/resource-solo-v1.2.0/pulumi-resource-solo", req: Request{Name: "solo", Version: ">= 1.0"},
			summary: "Provider plugin not executable", lines: []string{fix}},
		"terraform tree": {file: "tfcache/registry.terraform.io/hashicorp/solo/3.0.0/linux_amd64/terraform-provider-solo_v3.0.0_x5", req: Request{Name: "solo", Source: "hashicorp/solo"},
			summary: "Provider plugin not executable", lines: []string{fix}},
		"beside a runnable one of another version": {file: "path1/terraform-provider-solo_v2.0.0", also: []string{"path2/terraform-provider-solo_v1.0.0"},
			req: Request{Name: "solo", Version: ">= 2.0"}, summary: "Provider plugin not found",
			lines: []string{`no plugin for package "solo" matches version ">= 2.0"; found:`, fix}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tr := newTree(t, tc.also...)
			path := filepath.Join(tr.root, tc.file)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := (&Finder{Env: tr.env}).Find(context.Background(), tc.req)
			var nf *NotFoundError
			if !errors.As(err, &nf) {
				t.Fatalf("Find = %v; want a NotFoundError", err)
			}
			if summary, _, _, _ := nf.Diagnostic(); summary != tc.summary {
				t.Errorf("summary %q, want %q", summary, tc.summary)
			}
			var want, got []string
			msg := strings.Split(err.Error(), "\n")
			for _, w := range tc.lines {
				want = append(want, strings.ReplaceAll(w, "%[1]s", path))
			}
			for _, l := range msg {
				if slices.Contains(want, l) {
					got = append(got, l)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("message lines (-want +got):\n%s\nmessage:\n%s", diff, err)
			}
			if len(tc.lines) == 1 && len(msg) != 1 {
				t.Errorf("the message says more than how to fix the file:\n%s", err)
			}
		})
	}
}

// TestDevOverridesAndWarningsOnce: a dev_overrides directory wins over
// every location for its provider address, with a warning given once
// however often it is looked up (plinth looks before a run and again in
// it), as is the warning for a plugin of unknown version; an override
// directory without the binary is an error naming it.
func TestDevOverridesAndWarningsOnce(t *testing.T) {
	tr := newTree(t, append(everyLayout, "dev/terraform-provider-random")...)
	tr.env.DevOverrides = map[string]string{
		"registry.terraform.io/hashicorp/random": filepath.Join(tr.root, "dev"),
		"registry.terraform.io/hashicorp/tls":    filepath.Join(tr.root, "nothing"),
	}
	var warnings []string
	f := &Finder{Env: tr.env, Warn: func(m string) { warnings = append(warnings, m) }}
	ctx := context.Background()
	for range 2 {
		p, err := f.Find(ctx, Request{Name: "random", Version: "~> 9.0", Source: "hashicorp/random"})
		if err != nil || p.Path != filepath.Join(tr.root, "dev", "terraform-provider-random") || p.Origin != OriginDevOverride {
			t.Fatalf("Find = %v, %v; want the override's binary", p, err)
		}
		if _, err := f.Find(ctx, Request{Name: "null", Version: ">= 1.0"}); err != nil {
			t.Fatal(err)
		}
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], "dev_overrides") || !strings.Contains(warnings[1], "its version is unknown") {
		t.Errorf("warnings = %q, want one for the override and one for the unversioned null", warnings)
	}
	if _, err := f.Find(ctx, Request{Name: "tls", Source: "hashicorp/tls"}); err == nil || !strings.Contains(err.Error(), "cannot be read") {
		t.Errorf("an override directory that is not there: %v", err)
	}
}
