package pulumi_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// plugins is what a version case installs on PLINTH_PLUGIN_PATH.
type plugins int

const (
	noPlugin    plugins = iota
	samePlugin          // the plugin as built: its version (0.1.0) is asked of it
	newerPlugin         // the plugin in a Pulumi-style resource-plinth-v0.2.0 directory
	bothPlugins         // both of the above
)

// builtInBinary names, in a case's want, the built-in provider in process.
const builtInBinary = "built-in"

// TestVersionConstraints asks for the plinth package by version, from
// the providers block and from a resource's version option, with and
// without plugins installed, and checks which binary served the resource:
// the newest compatible provider wins, an installed plugin wins a tie
// with the built-in, and when nothing fits the command fails before
// creating anything, listing what it found and where it looked.
//
// The newer plugin is the same binary placed in a directory that says
// v0.2.0: discovery takes a version from the directory name, which is
// all the choice depends on.
func TestVersionConstraints(t *testing.T) {
	tests := map[string]struct {
		program    string // testdata/versions-<program>
		constraint string
		plugins    plugins
		want       string // the binary that serves: builtInBinary, "same" or "newer"
		wantErr    []string
	}{
		"block: the plugin wins a tie":         {program: "block", constraint: ">= 0.1", plugins: samePlugin, want: "same"},
		"block: the built-in alone":            {program: "block", constraint: ">= 0.1", plugins: noPlugin, want: builtInBinary},
		"block: the newest of three":           {program: "block", constraint: ">= 0.1", plugins: bothPlugins, want: "newer"},
		"option: the newest fits":              {program: "option", constraint: ">= 0.1", plugins: newerPlugin, want: "newer"},
		"option: an exact version":             {program: "option", constraint: "0.1.0", plugins: bothPlugins, want: "same"},
		"option: the built-in's exact version": {program: "option", constraint: "0.1.0", plugins: newerPlugin, want: builtInBinary},
		"option: only the plugin fits":         {program: "option", constraint: "~> 0.2.0", plugins: newerPlugin, want: "newer"},
		"block: nothing fits": {program: "block", constraint: ">= 0.2", plugins: samePlugin, wantErr: []string{
			`no plugin for package "plinth" matches version ">= 0.2"; found:`,
			"built-in plinth 0.1.0 (built in)",
			"pulumi-resource plinth 0.1.0 at {same} (PLINTH_PLUGIN_PATH)",
			"plinth looked in:",
			"{project}/.plinth/plugins (project)",
			"{plugins} (PLINTH_PLUGIN_PATH)",
			"Install pulumi-resource-plinth",
		}},
		"option: nothing fits": {program: "option", constraint: ">= 1.0", plugins: bothPlugins, wantErr: []string{
			`no plugin for package "plinth" matches version ">= 1.0"; found:`,
			"built-in plinth 0.1.0 (built in)",
			"pulumi-resource plinth 0.1.0 at {same} (PLINTH_PLUGIN_PATH)",
			"pulumi-resource plinth 0.2.0 at {newer} (PLINTH_PLUGIN_PATH)",
		}},
		"option: no plugin, nothing fits": {program: "option", constraint: "< 0.1", plugins: noPlugin, wantErr: []string{
			`no plugin for package "plinth" matches version "< 0.1"; found:`,
			"built-in plinth 0.1.0 (built in)",
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dirs, binaries := install(t, tc.plugins)
			p := newProject(t, "versions-"+tc.program, mode{name: name, pluginPath: strings.Join(dirs, ":")})
			clitest.Edit(t, p.dir, "plinth.yaml", `">= 0.1"`, `"`+tc.constraint+`"`)
			r := p.try("up", "--yes")
			if tc.wantErr != nil {
				checkNothingFits(t, p, r, tc.wantErr, strings.NewReplacer("{same}", binaries["same"], "{newer}", binaries["newer"],
					"{project}", p.dir, "{plugins}", p.mode.pluginPath))
				return
			}
			if r.Code != 0 {
				t.Fatalf("up: exit %d\n%s", r.Code, r.Output())
			}
			want := binaries[tc.want]
			if tc.want == builtInBinary {
				want = testBinary
			}
			if got := strings.TrimSpace(p.run("stack", "output", "servedBy").Stdout); got != want {
				t.Errorf("served by %s, want %s (%s)", got, want, tc.want)
			}
		})
	}
}

func checkNothingFits(t *testing.T, p *project, r clitest.Result, want []string, vars *strings.Replacer) {
	t.Helper()
	if r.Code != 1 {
		t.Fatalf("up: exit %d, want 1\n%s", r.Code, r.Output())
	}
	for _, w := range want {
		if w = vars.Replace(w); !strings.Contains(r.Stderr, w) {
			t.Errorf("the error does not say %q:\n%s", w, r.Stderr)
		}
	}
	if out := p.run("state", "ls").Stdout; !strings.Contains(out, "records no resources") {
		t.Errorf("a failed up recorded resources:\n%s", out)
	}
}

// install makes plugin directories for a case and returns them (for
// PLINTH_PLUGIN_PATH, in search order) and the binaries by name: "same"
// (the plugin as built) and "newer" (in a v0.2.0 directory).
func install(t *testing.T, which plugins) ([]string, map[string]string) {
	t.Helper()
	bins := map[string]string{}
	var dirs []string
	if which == samePlugin || which == bothPlugins {
		dirs, bins["same"] = append(dirs, pluginDir), pluginBinary
	}
	if which == newerPlugin || which == bothPlugins {
		dir, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		bins["newer"] = filepath.Join(dir, "resource-plinth-v0.2.0", "pulumi-resource-plinth")
		copyPlugin(t, bins["newer"])
		dirs = append(dirs, dir)
	}
	return dirs, bins
}

// copyPlugin puts the plugin binary at path: a hard link where it can (so
// the process runs under that path), else a copy.
func copyPlugin(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if os.Link(pluginBinary, path) == nil {
		return
	}
	src, err := os.Open(pluginBinary)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestPluginList: `plinth plugin ls --probe` lists the built-in provider
// and the plugins on PLINTH_PLUGIN_PATH with their versions, the bare
// binary's asked of it.
func TestPluginList(t *testing.T) {
	dirs, bins := install(t, bothPlugins)
	p := newProject(t, "versions-block", mode{name: "list", pluginPath: strings.Join(dirs, ":")})
	var got []string
	for _, line := range strings.Split(p.run("plugin", "ls", "--probe").Stdout, "\n") {
		if f := strings.Fields(line); len(f) >= 6 && f[0] == "plinth" {
			got = append(got, strings.Join(f, " "))
		}
	}
	want := []string{
		"plinth resource 0.1.0 builtin built in -",
		"plinth resource 0.2.0 pulumirpc PLINTH_PLUGIN_PATH " + bins["newer"],
		"plinth resource 0.1.0 pulumirpc PLINTH_PLUGIN_PATH " + bins["same"],
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plugin ls (-want +got):\n%s", diff)
	}
}
