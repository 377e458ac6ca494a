//go:build unix

package pulumiyaml_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMissingHost: without pulumi-language-yaml, up and preview exit 1
// naming the runtime, where plinth looked and what to install.
func TestMissingHost(t *testing.T) {
	p := newProject(t, "lifecycle")
	p.opts.Env["PATH"] = os.Getenv("PATH")
	if _, err := lookHost(p.opts.Env["PATH"]); err == nil {
		t.Skip("pulumi-language-yaml is on this machine's PATH")
	}
	for _, cmd := range []string{"up", "preview"} {
		r := p.try(cmd, "--yes")
		if cmd == "preview" {
			r = p.try(cmd)
		}
		if r.Code != 1 {
			t.Errorf("%s: exit %d, want 1:\n%s", cmd, r.Code, r.Output())
		}
		for _, want := range []string{`runtime "yaml"`, "pulumi-language-yaml", "plinth looked in:", filepath.Join(p.dir, ".plinth", "plugins"),
			filepath.Join(p.opts.Env["PULUMI_HOME"], "plugins"), "every directory on PATH", "go install github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"} {
			if !strings.Contains(r.Output(), want) {
				t.Errorf("%s: the error does not say %q:\n%s", cmd, want, r.Output())
			}
		}
	}
}

// TestMissingProviderPlugin: pulumi-language-yaml reads each package's
// schema from its Pulumi plugin, and downloads one it cannot find; plinth
// stops before the program runs (nothing is downloaded), exit 1, naming
// the package, where it looked and how to build plinth's own. The state
// is not touched.
func TestMissingProviderPlugin(t *testing.T) {
	p := newProject(t, "lifecycle")
	delete(p.opts.Env, "PLINTH_PLUGIN_PATH")
	for _, cmd := range [][]string{{"preview"}, {"up", "--yes"}} {
		r := p.try(cmd...)
		if r.Code != 1 {
			t.Errorf("%s: exit %d, want 1:\n%s", cmd[0], r.Code, r.Output())
		}
		for _, want := range []string{`there is none for package "plinth" (pulumi-resource-plinth)`, filepath.Join(p.dir, ".plinth", "plugins"),
			"go build -o .plinth/plugins/pulumi-resource-plinth github.com/plinth-iac/plinth/cmd/pulumi-resource-plinth"} {
			if !strings.Contains(r.Output(), want) {
				t.Errorf("%s: the error does not say %q:\n%s", cmd[0], want, r.Output())
			}
		}
		if strings.Contains(r.Output(), "could not find latest version") {
			t.Errorf("%s: the host was let look for the plugin online:\n%s", cmd[0], r.Output())
		}
	}
	if ls := p.run("state", "ls").Stdout; strings.Contains(ls, "urn:") {
		t.Errorf("resources recorded:\n%s", ls)
	}
}

// lookHost finds pulumi-language-yaml on path.
func lookHost(path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		if fi, err := os.Stat(filepath.Join(dir, "pulumi-language-yaml")); err == nil && !fi.IsDir() {
			return filepath.Join(dir, "pulumi-language-yaml"), nil
		}
	}
	return "", os.ErrNotExist
}

// TestBrokenHostLeavesStateAlone: after an up, a language host that dies
// at start, one that never prints its port, one that is killed while
// the program runs and a program the host refuses each make up exit 1
// with an error saying what happened, and leave the state as it was: the
// same resources and outputs. (The host killed while a new resource is
// being created leaves that resource, created, recorded: the engine
// finishes the steps under way, as Pulumi's does.)
func TestBrokenHostLeavesStateAlone(t *testing.T) {
	p := newProject(t, "lifecycle")
	p.opts.Env["PLINTH_PLUGIN_HANDSHAKE_TIMEOUT"] = "2s"
	p.run("up", "--yes")
	before := parseState(t, p.run("state", "export").Stdout)
	real := filepath.Join(hostDir, "pulumi-language-yaml")

	tests := []struct {
		name   string
		script string // the host, in .plinth/plugins; "" for the real one
		edit   [2]string
		want   []string
		added  []string // resources the run may add
	}{
		{name: "exits at start", script: "#!/bin/sh\necho 'fake host: no interpreter' >&2\nexit 2\n",
			want: []string{"yaml language host", "did not start: it exited (exit status 2)", "fake host: no interpreter"}},
		{name: "never prints its port", script: "#!/bin/sh\necho 'fake host: thinking' >&2\nexec sleep 30\n",
			want: []string{"did not print its port within 2s", "fake host: thinking"}},
		{name: "killed during Run", script: "#!/bin/sh\n" + real + " \"$@\" &\nsleep 1\necho 'fake host: killing it' >&2\nkill -9 $!\nsleep 0.2\nexit 9\n",
			edit:  [2]string{"outputs:", "  wait:\n    type: plinth:time:Sleep\n    properties:\n      createDuration: 3s\noutputs:"},
			want:  []string{"crashed during Run", "exit status", "fake host: killing it"},
			added: []string{"urn:pulumi:dev::yamllife::plinth:time:Sleep::wait"}},
		{name: "a broken program", edit: [2]string{"${num.result} from", "${nope.result} from"},
			want: []string{"nope"}},
	}
	// The host killed during Run by its wrapper (kill -9, not plinth)
	// leaves the provider it started to read the schema, in a process
	// group of its own and no longer below anything plinth started.
	defer func() { killAll(running(filepath.Join(pluginDir, "pulumi-resource-plinth"))) }()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host := filepath.Join(p.dir, ".plinth", "plugins", "pulumi-language-yaml")
			if tt.script != "" {
				if err := os.MkdirAll(filepath.Dir(host), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(host, []byte(tt.script), 0o755); err != nil {
					t.Fatal(err)
				}
				defer os.Remove(host)
			}
			if tt.edit[0] != "" {
				program := p.readFile("Pulumi.yaml")
				defer os.WriteFile(filepath.Join(p.dir, "Pulumi.yaml"), []byte(program), 0o644)
				p.edit(tt.edit[0], tt.edit[1])
			}
			if tt.script == "" {
				// A preview of the broken program shows no stack output
				// going away.
				if pre := p.try("preview"); pre.Code != 1 || strings.Contains(pre.Stdout, "- note:") {
					t.Errorf("preview: exit %d, want 1 and the outputs left alone:\n%s", pre.Code, pre.Output())
				}
			}
			r := p.try("up", "--yes", "--skip-preview")
			t.Logf("%s", r.Output())
			if r.Code != 1 {
				t.Errorf("exit %d, want 1:\n%s", r.Code, r.Output())
			}
			for _, w := range tt.want {
				if !strings.Contains(r.Output(), w) {
					t.Errorf("the output does not say %q:\n%s", w, r.Output())
				}
			}
			after := parseState(t, p.run("state", "export").Stdout)
			for _, urn := range tt.added {
				delete(after.Resources, urn)
			}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("the state changed (-before +after):\n%s", diff)
			}
			if len(tt.added) > 0 {
				p.run("state", "rm", "--yes", tt.added[0])
			}
		})
	}
}

// state is what a state export records: each resource as JSON by URN,
// and the stack outputs.
type state struct {
	Resources map[string]string
	Outputs   string
}

func parseState(t *testing.T, export string) state {
	t.Helper()
	var raw struct {
		Resources []json.RawMessage `json:"resources"`
		Outputs   json.RawMessage   `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(export), &raw); err != nil {
		t.Fatalf("reading the state export: %v\n%s", err, export)
	}
	s := state{Resources: map[string]string{}, Outputs: string(raw.Outputs)}
	for _, r := range raw.Resources {
		var id struct{ URN string }
		if err := json.Unmarshal(r, &id); err != nil {
			t.Fatal(err)
		}
		s.Resources[id.URN] = string(r)
	}
	return s
}
