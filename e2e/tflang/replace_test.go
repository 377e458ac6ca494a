package tflang

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// planLine finds terraform's plan summary in a preview's output.
var planLine = regexp.MustCompile(`Plan: \d+ to add, \d+ to change, \d+ to destroy\.`)

// replaceEdit changes the variable that replaces random_string.a.
func replaceEdit(t *testing.T, dir string) {
	t.Helper()
	clitest.Edit(t, dir, "main.tf", `default = "1"`, `default = "2"`)
}

// TestReplaceWithDependents: a destroy-first replacement with dependents
// is planned as terraform plans it: the replaced resource alone is
// destroyed and created, one dependent is updated in place and the other,
// whose own diff forces it, replaced ("2 to add, 1 to change, 2 to
// destroy"); plinth's preview prints terraform's summary line, the update
// keeps the updated dependent's ID, and a second preview finds nothing.
func TestReplaceWithDependents(t *testing.T) {
	needReal(t)
	const want = "Plan: 2 to add, 1 to change, 2 to destroy."
	p := newProject(t, "testdata/replace")
	p.must("up", "--yes")
	updLine := stateLine(t, p, "terraform_data.upd")
	replaceEdit(t, p.dir)
	if got := planLine.FindString(p.must("preview").Stdout); got != want {
		t.Errorf("plinth's preview: %q, want %q", got, want)
	}
	p.must("up", "--yes")
	if line := stateLine(t, p, "terraform_data.upd"); line != updLine {
		t.Errorf("terraform_data.upd was recreated (%q, was %q); terraform updates it in place", line, updLine)
	}
	if r := p.run("preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("a second preview found changes or failed (exit %d):\n%s", r.Code, r.Output())
	}
	if tf, err := exec.LookPath("terraform"); err != nil {
		t.Log("terraform is not on PATH: skipping the comparison with terraform's plan (install terraform 1.11 to run it)")
	} else if got := terraformPlanAfterEdit(t, tf, "testdata/replace"); got != want {
		t.Errorf("terraform's plan: %q, want %q", got, want)
	}
	p.must("destroy", "--yes")
}

// stateLine is the line `plinth state ls` prints for an address: the
// address and its ID.
func stateLine(t *testing.T, p *project, addr string) string {
	t.Helper()
	for _, l := range strings.Split(p.must("state", "ls").Stdout, "\n") {
		if strings.Contains(l, "::"+addr) || strings.Contains(l, addr+" ") {
			return strings.TrimSpace(l)
		}
	}
	t.Fatalf("plinth's state records no %s", addr)
	return ""
}

// terraformPlanAfterEdit applies a copy of src with terraform, makes the
// edit and returns the plan's summary line.
func terraformPlanAfterEdit(t *testing.T, tf, src string) string {
	t.Helper()
	dir := clitest.CopyDir(t, src)
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+devOverrides(t, dir), "TF_IN_AUTOMATION=1",
		"TF_INPUT=0", "CHECKPOINT_DISABLE=1", "TF_DATA_DIR="+filepath.Join(dir, ".terraform"))
	terraform := func(args ...string) string {
		cmd := exec.Command(tf, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("terraform %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	terraform("init", "-input=false", "-no-color")
	terraform("apply", "-auto-approve", "-no-color")
	replaceEdit(t, dir)
	plan := terraform("plan", "-no-color")
	terraform("destroy", "-auto-approve", "-no-color")
	return planLine.FindString(plan)
}

// TestCreateBeforeDestroyNewFilename: a local_file with
// create_before_destroy whose filename changes and content does not comes
// back with the old ID (the content's hash), yet it is another file: plinth
// deletes out/a.txt as terraform does, leaving only out/b.txt, and says
// nothing about dropping a record from the state only.
func TestCreateBeforeDestroyNewFilename(t *testing.T) {
	needReal(t)
	check := func(who, dir, out string) {
		t.Helper()
		if _, err := os.Stat(filepath.Join(dir, "out", "a.txt")); !os.IsNotExist(err) {
			t.Errorf("%s left out/a.txt on disk (stat: %v):\n%s", who, err, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "out", "b.txt")); err != nil {
			t.Errorf("%s: out/b.txt: %v", who, err)
		}
	}
	p := newProject(t, "testdata/cbd_rename")
	p.must("up", "--yes")
	before := stateLine(t, p, "local_file.f")
	clitest.Edit(t, p.dir, "main.tf", `default = "a"`, `default = "b"`)
	up := p.must("up", "--yes")
	check("plinth", p.dir, up.Output())
	if strings.Contains(up.Output(), "state only") {
		t.Errorf("plinth dropped the old file's record without deleting it:\n%s", up.Output())
	}
	if after := stateLine(t, p, "local_file.f"); after != before {
		t.Errorf("state line %q, was %q: the test expects the ID to stay (the content's hash)", after, before)
	}
	if r := p.run("preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("a second preview found changes or failed (exit %d):\n%s", r.Code, r.Output())
	}
	p.must("destroy", "--yes")
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping its side")
	}
	dir := clitest.CopyDir(t, "testdata/cbd_rename")
	terraform := clitest.Terraform(t, tf, dir, clitest.TerraformEnv(devOverrides(t, dir), filepath.Join(dir, ".terraform")))
	terraform("init", "-input=false", "-no-color")
	terraform("apply", "-auto-approve", "-no-color")
	clitest.Edit(t, dir, "main.tf", `default = "a"`, `default = "b"`)
	check("terraform", dir, string(terraform("apply", "-auto-approve", "-no-color")))
	terraform("destroy", "-auto-approve", "-no-color")
}
