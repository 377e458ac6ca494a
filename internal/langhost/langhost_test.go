package langhost

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestConfig: keys get the project's namespace, secrets are listed apart,
// structured values become JSON.
func TestConfig(t *testing.T) {
	p := &Program{Project: &Project{Name: "proj"}, Config: map[string]resource.Value{
		"greeting":    resource.NewString("hi"),
		"token":       resource.MakeSecret(resource.NewString("s3cr3t")),
		"plinth:root": resource.NewString("/x"),
		"n":           resource.NewNumber(3),
		"tags":        resource.NewObject(resource.Object{"a": resource.NewBool(true)}),
	}}
	cfg, secret, err := p.config()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"proj:greeting": "hi", "proj:token": "s3cr3t", "plinth:root": "/x", "proj:n": "3", "proj:tags": `{"a":true}`}
	if diff := cmp.Diff(want, cfg); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"proj:token"}, secret); diff != "" {
		t.Errorf("secret keys (-want +got):\n%s", diff)
	}
}

// TestLoad reads the runtime in both of Pulumi's forms and refuses a
// project without one.
func TestLoad(t *testing.T) {
	cases := map[string]struct {
		file    string
		runtime string
		options map[string]any
		err     string
	}{
		"string":     {file: "name: p\nruntime: nodejs\n", runtime: "nodejs"},
		"mapping":    {file: "name: p\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n", runtime: "nodejs", options: map[string]any{"typescript": false}},
		"no runtime": {file: "name: p\n", err: "names no runtime"},
		"no name":    {file: "runtime: nodejs\n", err: "has no name"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte(c.file), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := Load(dir, "proj")
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "proj/Pulumi.yaml") {
					t.Fatalf("Load = %v, want an error naming proj/Pulumi.yaml and saying %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Runtime != c.runtime || !cmp.Equal(p.Options, c.options) {
				t.Errorf("runtime %q options %v, want %q %v", p.Runtime, p.Options, c.runtime, c.options)
			}
			if _, err := (Hosts{}).For(p); err == nil || !strings.Contains(err.Error(), "not supported by plinth") {
				t.Errorf("For with no hosts = %v, want a refusal", err)
			}
		})
	}
}

// TestLoadProviderPlugins reads the provider plugins a project file names.
func TestLoadProviderPlugins(t *testing.T) {
	dir := t.TempDir()
	file := "name: p\nruntime: yaml\nplugins:\n  providers:\n    - name: plinth\n      path: ./bin\n  languages:\n    - name: yaml\n      path: ./lang\n"
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Load(dir, "proj")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"plinth": "./bin"}, p.ProviderPlugins); diff != "" {
		t.Errorf("provider plugins (-want +got):\n%s", diff)
	}
}

// TestLoadConfigDefaults: the defaults of the config keys Pulumi.yaml
// declares are read, in the long form (type and default) and the short
// one (the value itself); a declaration without a default has none.
func TestLoadConfigDefaults(t *testing.T) {
	dir := t.TempDir()
	file := `name: p
runtime: yaml
config:
  words:
    type: array
    items:
      type: string
    default: [alpha, beta]
  count:
    type: integer
    default: 2
  required:
    type: string
  short: plain
  aws:region: us-west-2
  nested:
    default:
      a: 1
`
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Load(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"words": []any{"alpha", "beta"}, "count": 2, "short": "plain", "aws:region": "us-west-2",
		"nested": map[string]any{"a": 1},
	}
	if diff := cmp.Diff(want, p.ConfigDefaults); diff != "" {
		t.Errorf("config defaults (-want +got):\n%s", diff)
	}
}

// TestKilledBy: a program killed by a signal is told apart from one that
// exited with a code (whose exit code, -1, said nothing before).
func TestKilledBy(t *testing.T) {
	for name, tc := range map[string]struct {
		script string
		want   string
	}{
		"killed":     {"kill -9 $$", "SIGKILL (killed)"},
		"terminated": {"kill -TERM $$", "SIGTERM (terminated)"},
		"exit 3":     {"exit 3", ""},
	} {
		t.Run(name, func(t *testing.T) {
			err := exec.Command("sh", "-c", tc.script).Run()
			if err == nil {
				t.Fatal("the script succeeded")
			}
			if got := KilledBy(err); got != tc.want {
				t.Errorf("KilledBy = %q, want %q", got, tc.want)
			}
		})
	}
}
