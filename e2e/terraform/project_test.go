package terraform

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// project is a copy of a testdata program that a test drives through the
// command line.
type project struct {
	t    *testing.T
	dir  string
	opts clitest.Options
}

// newProject copies testdata/<scenario> into a fresh directory. Plugins
// are looked for in plugins (and in directories of the test's own, so
// that nothing installed on the machine is found).
func newProject(t *testing.T, scenario, plugins string) *project {
	t.Helper()
	return &project{t: t, dir: clitest.CopyDir(t, filepath.Join("testdata", scenario)), opts: clitest.Options{
		Env: map[string]string{
			"PLINTH_PLUGIN_PATH": plugins,
			"PLINTH_HOME":        t.TempDir(),
			"PULUMI_HOME":        t.TempDir(),
		},
	}}
}

// realProject is a project whose program uses the real providers.
func realProject(t *testing.T, scenario string) *project {
	t.Helper()
	needReal(t)
	return newProject(t, scenario, pluginDir)
}

// run runs a plinth command in the project.
func (p *project) run(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.Run(p.t, p.dir, p.opts, args...)
}

// must runs a plinth command that must succeed.
func (p *project) must(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.MustRun(p.t, p.dir, p.opts, args...)
}

// path is a file of the project.
func (p *project) path(rel string) string { return filepath.Join(p.dir, filepath.FromSlash(rel)) }

// read returns a file of the project.
func (p *project) read(rel string) string {
	p.t.Helper()
	b, err := os.ReadFile(p.path(rel))
	if err != nil {
		p.t.Fatal(err)
	}
	return string(b)
}

// write replaces a file of the project.
func (p *project) write(rel, content string) {
	p.t.Helper()
	if err := os.MkdirAll(filepath.Dir(p.path(rel)), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(p.path(rel), []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// edit replaces old with new in the program.
func (p *project) edit(old, new string) {
	p.t.Helper()
	clitest.Edit(p.t, p.dir, "plinth.yaml", old, new)
}

// output reads one stack output as plinth prints it for scripts.
func (p *project) output(name string, flags ...string) string {
	p.t.Helper()
	return strings.TrimSpace(p.must(append([]string{"stack", "output", name}, flags...)...).Stdout)
}

// preview runs preview --detailed-exitcode and returns its exit code and
// step lines.
func (p *project) preview() (int, []string, clitest.Result) {
	p.t.Helper()
	r := p.run("preview", "--detailed-exitcode")
	if r.Code == 1 {
		p.t.Fatalf("preview failed:\n%s", r.Output())
	}
	return r.Code, clitest.ChangeLines(r.Stdout), r
}

// noChanges checks that a preview finds nothing to do.
func (p *project) noChanges(when string) {
	p.t.Helper()
	if code, lines, r := p.preview(); code != 0 {
		p.t.Errorf("%s: preview found changes %q, want none\n%s", when, lines, r.Stdout)
	}
}

// exists says whether a file of the project exists.
func (p *project) exists(rel string) bool {
	_, err := os.Stat(p.path(rel))
	return err == nil
}

// addResources adds resource entries to the program.
func (p *project) addResources(entries string) {
	p.t.Helper()
	if strings.Contains(p.read("plinth.yaml"), "resources: {}\n") {
		p.edit("resources: {}\n", "resources:\n"+entries)
		return
	}
	p.edit("resources:\n", "resources:\n"+entries)
}

// sorted compares step lines without regard to order: independent
// resources run in parallel.
var sorted = cmpopts.SortSlices(func(a, b string) bool { return a < b })

// stepDuration is the duration plain output puts after a finished step.
var stepDuration = regexp.MustCompile(` \(\d+(\.\d+)?(ms|s|µs)\)`)

// doneLines are the lines of finished steps in the plain output of an
// operation (not its preview), without durations or diff summaries.
func doneLines(out string) []string {
	for _, title := range []string{"\nUpdating stack", "\nRefreshing stack", "\nDestroying stack", "\nImporting into"} {
		if i := strings.LastIndex(out, title); i >= 0 {
			out = out[i:]
			break
		}
	}
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		fields := strings.Fields(l)
		if !strings.HasPrefix(l, "  ") || len(fields) < 2 {
			continue
		}
		verb := fields[0]
		if strings.Trim(verb, "+-~=") == "" {
			verb = fields[1]
		}
		if strings.HasSuffix(verb, "ed") && verb != "failed" {
			l, _, _ = strings.Cut(stepDuration.ReplaceAllString(strings.TrimSpace(l), ""), " [")
			lines = append(lines, l)
		}
	}
	return lines
}

// up runs up and checks its finished steps (doneLines).
func (p *project) up(what string, want ...string) clitest.Result {
	p.t.Helper()
	r := p.must("up", "--yes")
	if diff := cmp.Diff(want, doneLines(r.Stdout), sorted); diff != "" {
		p.t.Errorf("up, %s (-want +got):\n%s\n%s", what, diff, r.Stdout)
	}
	return r
}

// wantOutputs checks stack outputs.
func (p *project) wantOutputs(when string, want map[string]string) {
	p.t.Helper()
	for name, w := range want {
		if got := p.output(name); got != w {
			p.t.Errorf("%s: output %s = %q, want %q", when, name, got, w)
		}
	}
}

// expectPreview checks that a preview finds exactly these steps.
func (p *project) expectPreview(what string, want ...string) {
	p.t.Helper()
	code, lines, r := p.preview()
	if code != 2 {
		p.t.Fatalf("%s: preview --detailed-exitcode = %d, want 2 (changes)\n%s", what, code, r.Output())
	}
	if diff := cmp.Diff(want, lines, sorted); diff != "" {
		p.t.Errorf("%s: preview (-want +got):\n%s\n%s", what, diff, r.Stdout)
	}
}

// destroyed checks that nothing is left: the files, the state's resources
// and the stack's outputs.
func (p *project) destroyed(files ...string) {
	p.t.Helper()
	for _, f := range files {
		if p.exists(f) {
			p.t.Errorf("after destroy, %s still exists", f)
		}
	}
	if r := p.must("state", "ls"); !strings.Contains(r.Stdout, "records no resources") {
		p.t.Errorf("after destroy the state still records resources:\n%s", r.Stdout)
	}
	var outputs map[string]any
	if err := json.Unmarshal([]byte(p.must("stack", "output", "--json").Stdout), &outputs); err != nil || len(outputs) > 0 {
		p.t.Errorf("after destroy the stack's outputs are %v (%v), want none", outputs, err)
	}
}

// sha1Hex is the SHA-1 of s in hex, the ID the local provider gives a file.
func sha1Hex(s string) string {
	sum := sha1.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}
