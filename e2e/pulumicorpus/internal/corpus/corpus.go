//go:build unix

package corpus

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// Run runs every program of the corpus's testdata whose language prefix
// is one of prefixes ("yaml", "js", ...) under plinth (and, for live
// languages, under pulumi too) and checks it against its expect.json: see
// e2e/pulumicorpus's package comment. With -record it runs the programs
// under pulumi only and rewrites their expectations.
func Run(t *testing.T, prefixes ...string) {
	found, err := filepath.Glob(filepath.Join(dataDir, "*", "expect.json"))
	if err != nil || len(found) == 0 {
		t.Fatalf("no programs in %s (%v)", dataDir, err)
	}
	for _, f := range found {
		program := filepath.Base(filepath.Dir(f))
		if prefix, _, _ := strings.Cut(program, "-"); !slices.Contains(prefixes, prefix) {
			continue
		}
		t.Run(program, func(t *testing.T) {
			t.Parallel()
			c := newRun(t, program)
			if *record {
				c.record()
				return
			}
			c.underPlinth()
			if c.lang.live {
				c.underPulumi()
			}
		})
	}
}

// run is one program's test: its language, expectations and scratch
// space.
type run struct {
	t       *testing.T
	program string
	lang    language
	exp     expectation
	tmp     string
	path    []string          // the language's PATH directories
	env     map[string]string // the language's variables

	// based records the backends ("plinth:<dir>", "pulumi:<name>") where
	// the program's base/ ran as stack base.
	based map[string]bool

	// The program's directory under plinth and plinth's export of its
	// stack after the edit, for the comparison with pulumi's.
	plinthDir, plinthExport string
}

func newRun(t *testing.T, program string) *run {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the corpus needs language hosts, the provider plugin and the pulumi CLI")
	}
	lang := languageOf(t, program)
	c := &run{t: t, program: program, lang: lang, exp: readExpectation(t, filepath.Join(dataDir, program)), tmp: t.TempDir(), based: map[string]bool{}}
	c.path = lang.path(t)
	if lang.env != nil {
		c.env = lang.env(t)
	}
	return c
}

// copyProgram copies the program and readies the copy.
func (c *run) copyProgram() string {
	c.t.Helper()
	dir := copyProgram(c.t, c.program)
	if c.lang.prepare != nil {
		c.lang.prepare(c.t, dir)
	}
	return dir
}

// underPlinth: up, a clean preview, the edit, the stack moves both ways,
// destroy.
func (c *run) underPlinth() {
	t := c.t
	dir := c.copyProgram()
	p := c.plinthIn(dir, "")
	r := p.Run("up", "--yes")
	checkStage(t, "plinth up", c.exp.Up, steps(t, "plinth up", r.Stdout), plinthOutputs(t, p))
	cleanPreview(t, "plinth preview after up", p)
	applyEdit(t, c.program, dir)
	r = p.Run("up", "--yes")
	checkStage(t, "plinth up after the edit", c.exp.Edit, steps(t, "plinth up after the edit", r.Stdout), plinthOutputs(t, p))
	cleanPreview(t, "plinth preview after the edit", p)
	c.plinthDir, c.plinthExport = dir, p.Run("state", "export", "--format", "pulumi").Stdout
	c.movePlinthToPulumi(p)
	p.Run("destroy", "--yes")
	if left := c.exported(p).Resources; len(left) != 0 {
		t.Errorf("plinth destroy left %d resources in the stack: %v", len(left), left)
	}
}

// movePlinthToPulumi exports plinth's stack, imports it into pulumi (in
// the same directory, on a backend of its own), previews it there when
// pulumi can run the program, checks that pulumi's export of it equals
// plinth's, and adopts pulumi's export back into plinth, in a fresh
// backend, whose preview must be clean.
func (c *run) movePlinthToPulumi(p *clitest.Project) {
	t := c.t
	if why := c.exp.Skip["pulumiImport"]; why != "" {
		t.Logf("skipping pulumi stack import of plinth's export: %s", why)
		return
	}
	file := filepath.Join(c.tmp, "plinth-export.json")
	export := c.plinthExport
	writeFile(t, file, export)
	pu := c.pulumiIn(p.Dir, "pulumi-import", c.path)
	pu.run("stack", "init", "dev")
	pu.run("stack", "import", "--file", file)
	if c.exp.PulumiPreview {
		if out, errOut, err := pu.try("preview", "--expect-no-changes"); err != nil {
			t.Errorf("pulumi preview of plinth's stack, imported: %v, want no changes\n%s%s", err, out, errOut)
		}
	}
	back := pu.run("stack", "export")
	if diff := cmp.Diff(clitest.OpenDeployment(t, []byte(export), passphrase), clitest.OpenDeployment(t, []byte(back), passphrase)); diff != "" {
		t.Errorf("pulumi stack export after importing plinth's (-plinth +pulumi):\n%s", diff)
	}
	c.adopt(p.Dir, "pulumi's export of plinth's stack", back)
}

// adopt adopts a pulumi export into plinth in dir, in a fresh backend,
// and checks that a preview there finds nothing to change.
func (c *run) adopt(dir, what, export string) {
	t := c.t
	file := filepath.Join(c.tmp, "adopt-"+strings.ReplaceAll(what, " ", "-")+".json")
	writeFile(t, file, export)
	q := c.plinthIn(dir, filepath.Join(c.tmp, "adopted-"+filepath.Base(file)))
	q.Run("stack", "init", "dev")
	q.Run("state", "adopt", "--format", "pulumi", file)
	cleanPreview(t, "plinth preview after adopting "+what, q)
}

// underPulumi runs the program under the pulumi CLI, with the same
// expectations: up, a clean preview, the edit; then plinth adopts
// pulumi's stack and previews it clean; pulumi destroys it.
func (c *run) underPulumi() {
	t := c.t
	dir := c.copyProgram()
	pu := c.pulumiIn(dir, "pulumi-up", c.path)
	pu.run("stack", "init", "dev")
	up, edit := c.pulumiUps(pu, dir)
	checkStage(t, "pulumi up", c.exp.Up, up.Steps, up.Outputs)
	checkStage(t, "pulumi up after the edit", c.exp.Edit, edit.Steps, edit.Outputs)
	export := pu.run("stack", "export")
	if why := c.exp.Skip["compareStacks"]; why != "" {
		t.Logf("skipping the comparison of plinth's stack with pulumi's: %s", why)
	} else {
		compareStacks(t, c.plinthExport, export, c.plinthDir, dir)
	}
	if why := c.exp.Skip["pulumiAdopt"]; why != "" {
		t.Logf("skipping plinth state adopt of pulumi's own stack: %s", why)
	} else {
		c.adopt(dir, "pulumi's own stack", export)
	}
	pu.run("destroy", "--yes", "--skip-preview")
}

// pulumiUps runs pulumi up, a preview that must be clean, the edit and
// up again, and returns what each up did.
func (c *run) pulumiUps(pu *pulumi, dir string) (up, edit stage) {
	t := c.t
	out := pu.run("up", "--yes", "--skip-preview")
	up = stage{Steps: steps(t, "pulumi up", out), Outputs: pu.outputs()}
	if out, errOut, err := pu.try("preview", "--expect-no-changes"); err != nil {
		t.Errorf("pulumi preview after up: %v, want no changes\n%s%s", err, out, errOut)
	}
	applyEdit(t, c.program, dir)
	out = pu.run("up", "--yes", "--skip-preview")
	edit = stage{Steps: steps(t, "pulumi up after the edit", out), Outputs: pu.outputs()}
	return up, edit
}

// record runs the program under pulumi and rewrites expect.json's up and
// edit from what it did; "<any>" stays where the old expectations had it.
func (c *run) record() {
	t := c.t
	path := c.path
	if !c.lang.live {
		path = append([]string{recordHosts(t)}, path...)
	}
	dir := c.copyProgram()
	pu := c.pulumiIn(dir, "pulumi-record", path)
	pu.run("stack", "init", "dev")
	up, edit := c.pulumiUps(pu, dir)
	pu.run("destroy", "--yes", "--skip-preview")
	up.Outputs = keepAny(map[string]any(c.exp.Up.Outputs), up.Outputs).(map[string]any)
	edit.Outputs = keepAny(map[string]any(c.exp.Edit.Outputs), edit.Outputs).(map[string]any)
	c.exp.Up, c.exp.Edit = up, edit
	version := strings.TrimSpace(pu.run("version"))
	if version == "" { // a CLI built from the module proxy has no version stamped
		version = filepath.Base(filepath.Dir(pulumiCLI))
	}
	c.exp.Recorded = "pulumi " + version + " up, language host from PATH " + strings.Join(path, ":") + ", " + time.Now().UTC().Format("2006-01-02")
	if c.lang.live {
		c.exp.Recorded = "pulumi " + version + " up, pulumi-language-yaml from yamltest; checked live at every run, " + time.Now().UTC().Format("2006-01-02")
	}
	writeExpectation(t, filepath.Join(dataDir, c.program), c.exp)
}

// cleanPreview fails the test unless a plinth preview finds nothing to
// change.
func cleanPreview(t *testing.T, who string, p *clitest.Project) {
	t.Helper()
	if r := p.Try("preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("%s: exit %d, want 0 (no changes)\n%s", who, r.Code, r.Output())
	}
}

// exported is plinth's stack as a Pulumi deployment, secrets opened.
func (c *run) exported(p *clitest.Project) deployment {
	c.t.Helper()
	return clitest.OpenDeployment(c.t, []byte(p.Run("state", "export", "--format", "pulumi").Stdout), passphrase)
}

// deployment is a Pulumi deployment as clitest.OpenDeployment reads it.
type deployment = apitype.DeploymentV3
