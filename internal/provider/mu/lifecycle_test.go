package mu_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// pluginDir holds mu-resource-store, built from testdata/muplugin by
// TestMain: PLINTH_PLUGIN_PATH names it.
var pluginDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mu-plugin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pluginDir = dir
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "mu-resource-store"), "./testdata/muplugin")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building testdata/muplugin:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// project is a copy of a testdata program whose store plugin is found
// through PLINTH_PLUGIN_PATH.
type project struct {
	t    *testing.T
	dir  string
	opts clitest.Options
}

func newProject(t *testing.T, program string) *project {
	tmp := t.TempDir()
	return &project{t: t, dir: clitest.CopyDir(t, filepath.Join("testdata", program)), opts: clitest.Options{Env: map[string]string{
		"PLINTH_PLUGIN_PATH": pluginDir,
		"PLINTH_HOME":        filepath.Join(tmp, "plinth-home"),
		"PULUMI_HOME":        filepath.Join(tmp, "pulumi-home"),
	}}}
}

func (p *project) run(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.MustRun(p.t, p.dir, p.opts, args...)
}

// calls returns the calls the plugin logged since the last look.
func (p *project) calls(seen *int) []string {
	p.t.Helper()
	data, err := os.ReadFile(filepath.Join(p.dir, "mu-store", "calls.log"))
	if err != nil {
		p.t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var out []string
	for _, l := range lines[*seen:] {
		if !strings.HasPrefix(l, "Read ") { // the engine may read more than once
			out = append(out, l)
		}
	}
	*seen = len(lines)
	return out
}

// stored is the plugin's record of a resource, "" if it has none.
func (p *project) stored(id string) string {
	data, err := os.ReadFile(filepath.Join(p.dir, "mu-store", id+".json"))
	if os.IsNotExist(err) {
		return ""
	} else if err != nil {
		p.t.Fatal(err)
	}
	return string(data)
}

// TestLifecycle drives the store plugin, a Mu-protocol provider found as
// mu-resource-store on PLINTH_PLUGIN_PATH, through the command line:
// create, an update of one property, an update that adds one property and
// removes another (the engine's own diff: an update, never a replacement,
// sending only what changed), refresh after drift (Read) and the update
// that repairs it, and destroy.
func TestLifecycle(t *testing.T) {
	p := newProject(t, "program")
	seen := 0
	steps := []struct {
		name   string
		before func()
		args   []string
		calls  []string
		stored string
	}{
		{"create", nil, []string{"up", "--yes"},
			[]string{"Create store:index:Bucket r1 color=red size=1"}, `{"type":"store:index:Bucket","properties":{"color":"red","size":1}}`},
		{"update", func() { p.run("config", "set", "color", "blue") }, []string{"up", "--yes"},
			[]string{"Update store:index:Bucket r1 color=blue"}, `{"type":"store:index:Bucket","properties":{"color":"blue","size":1}}`},
		{"update adding and removing properties", func() {
			clitest.Edit(t, p.dir, "plinth.yaml", "      color: ${color}\n", "      label: new\n")
			clitest.Edit(t, p.dir, "plinth.yaml", "  color: ${bucket.color}\n", "  color: ${bucket.label}\n")
		}, []string{"up", "--yes"},
			[]string{"Update store:index:Bucket r1 color=<nil> label=new"}, `{"type":"store:index:Bucket","properties":{"label":"new","size":1}}`},
		{"refresh after drift", func() {
			p.writeStored("r1", `{"type":"store:index:Bucket","properties":{"label":"new","size":5}}`)
		}, []string{"refresh", "--yes"}, nil, `{"type":"store:index:Bucket","properties":{"label":"new","size":5}}`},
		{"repair the drift", nil, []string{"up", "--yes"},
			[]string{"Update store:index:Bucket r1 size=1"}, `{"type":"store:index:Bucket","properties":{"label":"new","size":1}}`},
		{"destroy", nil, []string{"destroy", "--yes"}, []string{"Delete store:index:Bucket r1"}, ""},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		out := p.run(s.args...)
		if diff := cmp.Diff(s.calls, p.calls(&seen)); diff != "" {
			t.Fatalf("%s: calls (-want +got):\n%s\n%s", s.name, diff, out.Output())
		}
		if got := p.stored("r1"); got != s.stored {
			t.Fatalf("%s: the plugin stores %s, want %s", s.name, got, s.stored)
		}
		if strings.Contains(out.Output(), "replac") {
			t.Fatalf("%s: the Mu provider's resource was replaced:\n%s", s.name, out.Output())
		}
		if s.name == "refresh after drift" {
			// Read's answer is recorded as the inputs and the outputs, so
			// the next update repairs the drift.
			if show := p.run("state", "show", "bucket").Stdout; strings.Count(show, "size: 5\n") != 2 {
				t.Fatalf("refresh did not record the size read back as input and output:\n%s", show)
			}
		}
	}
}

func (p *project) writeStored(id, content string) {
	p.t.Helper()
	if err := os.WriteFile(filepath.Join(p.dir, "mu-store", id+".json"), []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// TestCrashDuringCreate: the plugin stores the resource, then exits in the
// middle of Create. plinth cannot know whether the create happened, so it
// leaves it pending (state pending lists it) and says the provider crashed.
func TestCrashDuringCreate(t *testing.T) {
	p := newProject(t, "crash")
	r := clitest.Run(t, p.dir, p.opts, "up", "--yes")
	if r.Code == 0 || !strings.Contains(r.Output(), "provider store crashed during Create of ") ||
		!strings.Contains(r.Output(), "crashing in the middle of Create") {
		t.Fatalf("up: exit %d, want a failure saying the provider crashed, with its stderr:\n%s", r.Code, r.Output())
	}
	if p.stored("r1") == "" {
		t.Fatal("the plugin did not store the resource before crashing")
	}
	pending := p.run("state", "pending").Stdout
	if !strings.Contains(pending, "create urn:pulumi:") || !strings.Contains(pending, "store:index:Bucket::bucket") {
		t.Fatalf("state pending does not list the interrupted create:\n%s", pending)
	}
}
