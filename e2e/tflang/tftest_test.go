package tflang

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestTerraformTestSideBySide runs the test files of testdata/tftest/suite
// with plinth test and, where terraform is on PATH, with terraform test,
// on the same provider binaries, and compares what each says of every
// file and run (pass, fail, skip), the errors' summaries, the totals and
// the exit code. The files cover passing and failing assertions, plan
// runs (one asserting on a value unknown until apply), expect_failures
// met and missed, state carried between runs, a module block, and a
// check block that fails unexpected; testdata/tftest/mocks has mock
// providers (resources and data sources) and overridden resources;
// testdata/tftest/vars the precedence of variables from every source;
// testdata/tftest/options plan_options (replace, target, refresh), a
// run's variables from an earlier run's outputs, resource preconditions
// expected to fail, and a real data source read in a plan run;
// testdata/tftest/planned outputs an apply keeps from its plan;
// testdata/tftest/overrides overridden data sources and module calls,
// override_during, overrides inside mock_provider and refresh-only runs.
func TestTerraformTestSideBySide(t *testing.T) {
	needReal(t)
	tf, _ := exec.LookPath("terraform")
	for name, c := range map[string]struct {
		src    string
		filter []string
		vars   []string // NAME=VALUE, given as -var (and -var-file=cli.tfvars with them)
	}{
		"all":     {src: "testdata/tftest/suite"},
		"filter":  {src: "testdata/tftest/suite", filter: []string{"tests/02_fail.tftest.hcl", "tests/07_module.tftest.hcl"}},
		"mocks":   {src: "testdata/tftest/mocks"},
		"options": {src: "testdata/tftest/options"},
		// override_data, override_module, override_during, overrides in
		// mock_provider, a mock of an aliased provider, plan_options {
		// mode = refresh-only }
		"overrides": {src: "testdata/tftest/overrides"},
		"planned":   {src: "testdata/tftest/planned"},
		"vars":      {src: "testdata/tftest/vars", vars: []string{"a=cli", "b=cli", "c=cli", "d=cli"}},
	} {
		src, filter, vars := c.src, c.filter, c.vars
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := plinthTest(t, src, filter, vars)
			if tf == "" {
				t.Log("terraform is not on PATH: skipping the comparison with terraform (install terraform 1.11 to run it)")
				return
			}
			want := terraformTest(t, tf, src, filter, vars)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("plinth test and terraform test differ (-terraform +plinth):\n%s", diff)
			}
		})
	}
}

// testReport is what the comparison reads of a test report.
type testReport struct {
	Code  int
	Lines []string // each file's and run's status, error summaries, the totals
}

var reportLine = regexp.MustCompile(`^(\S+\.tftest\.hcl\.\.\. (pass|fail|skip)|  run "[^"]*"\.\.\. (pass|fail|skip)|Error: .*|(Success|Failure)! .*)$`)

func readReport(code int, out string) testReport {
	r := testReport{Code: code}
	for _, l := range strings.Split(out, "\n") {
		if reportLine.MatchString(l) {
			r.Lines = append(r.Lines, l)
		}
	}
	return r
}

// plinthTest runs plinth test on a copy of src and checks that nothing
// the runs wrote is left: every local_file was destroyed.
func plinthTest(t *testing.T, src string, filter, vars []string) testReport {
	t.Helper()
	p := newProject(t, src)
	args := []string{"test"}
	for _, f := range filter {
		args = append(args, "--filter", f)
	}
	if len(vars) > 0 {
		args = append(args, "--var-file", "cli.tfvars")
	}
	for _, v := range vars {
		args = append(args, "--var", v)
	}
	r := p.run(args...)
	if left, _ := filepath.Glob(filepath.Join(p.dir, "out", "*")); len(left) > 0 {
		t.Errorf("plinth test left files the runs created, not destroyed at the end: %v", left)
	}
	if r.Stderr != "" {
		t.Errorf("plinth test wrote to standard error:\n%s", r.Stderr)
	}
	return readReport(r.Code, r.Stdout)
}

// terraformTest runs terraform test on a copy of src.
func terraformTest(t *testing.T, tf, src string, filter, vars []string) testReport {
	t.Helper()
	dir := clitest.CopyDir(t, src)
	env := clitest.TerraformEnv(devOverrides(t, dir), filepath.Join(dir, ".terraform"))
	clitest.Terraform(t, tf, dir, env)("init", "-input=false", "-no-color")
	args := []string{"test", "-no-color"}
	for _, f := range filter {
		args = append(args, "-filter="+f)
	}
	if len(vars) > 0 {
		args = append(args, "-var-file=cli.tfvars")
	}
	for _, v := range vars {
		args = append(args, "-var", v)
	}
	cmd := exec.Command(tf, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stdout
	code := 0
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("terraform test: %v", err)
		}
		code = exit.ExitCode()
	}
	return readReport(code, stdout.String())
}

// TestTerraformTestVerbose: --verbose shows each run's resources and
// outputs, planned values unknown until apply as such.
func TestTerraformTestVerbose(t *testing.T) {
	p := newProject(t, "testdata/tftest/small")
	r := p.run("test", "--verbose")
	for _, want := range []string{
		`  run "plan"... pass`,
		"  terraform_data.x = (known after apply)",
		`  output.input = "hi"`,
		`  run "apply"... pass`,
		`  output.echo = "hi"`,
		"Success! 2 passed, 0 failed.",
	} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("plinth test --verbose does not say %q:\n%s", want, r.Output())
		}
	}
	if r.Code != 0 {
		t.Errorf("exit code %d, want 0", r.Code)
	}
}

// TestTerraformTestNoFiles: a configuration without test files passes
// with nothing run, as terraform test does.
func TestTerraformTestNoFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("output \"x\" {\n  value = 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := clitest.Run(t, dir, clitest.Options{Env: map[string]string{"PLINTH_HOME": t.TempDir()}}, "test")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "Success! 0 passed, 0 failed." {
		t.Errorf("exit %d, output:\n%s", r.Code, r.Output())
	}
}

// TestTerraformTestBadRuns: each mistake found while a test file runs
// fails its run with a diagnostic naming the test file's line and run,
// quoting the line.
func TestTerraformTestBadRuns(t *testing.T) {
	p := newProject(t, "testdata/tftest/badrun")
	r := p.run("test")
	for _, want := range []string{
		"Error: Test assertion failed\n\n  on tests/assertion.tftest.hcl line 3, in run \"wrong\":\n  3:     condition     = output.echo == \"bye\"\n\nThe echo is hi.",
		"Error: Invalid condition result\n\n  on tests/condition_type.tftest.hcl line 4, in run \"list\":",
		"Error: Invalid expect_failures reference\n\n  on tests/expect_ref.tftest.hcl line 3, in run \"nothing_there\":",
		"var.nope is not a variable, output, resource, data source or check block",
		"Error: Missing expected failure\n\n  on tests/missing.tftest.hcl line 3, in run \"holds\":",
		"Error: Reference to undeclared output value\n\n  on tests/undeclared_output.tftest.hcl line 4, in run \"typo\":",
		"Error: Unknown condition value\n\n  on tests/unknown_condition.tftest.hcl line 4, in run \"planned\":",
		"Error: Reference to unknown value\n\n  on tests/unknown_var.tftest.hcl line 7, in run \"from_plan\":",
		"Failure! 1 passed, 7 failed.",
	} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("plinth test does not say:\n%s\n\nit said:\n%s", want, r.Output())
		}
	}
	if r.Code != 1 {
		t.Errorf("exit code %d, want 1", r.Code)
	}
}

// TestTerraformTestBadFile: a mistake in any test file stops plinth
// test before anything runs, with the diagnostic at file:line:col.
func TestTerraformTestBadFile(t *testing.T) {
	p := newProject(t, "testdata/tftest/small")
	bad := "run \"a\" {\n  command = destroy\n}\n"
	if err := os.WriteFile(filepath.Join(p.dir, "tests", "bad.tftest.hcl"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	r := p.run("test")
	if r.Code != 1 || !strings.Contains(r.Stderr, "tests/bad.tftest.hcl:2:13: Invalid run block command") || strings.Contains(r.Stdout, "in progress") {
		t.Errorf("exit %d, output:\n%s", r.Code, r.Output())
	}
}

// TestTerraformTestInterrupted: Ctrl-C during a run lets the steps in
// flight finish, skips the runs after it, and still destroys what the
// runs made; the exit code is 1.
func TestTerraformTestInterrupted(t *testing.T) {
	needReal(t)
	p := newProject(t, "testdata/tftest/interrupt")
	interrupts := make(chan os.Signal, 1)
	p.opts.Interrupts = interrupts
	note := filepath.Join(p.dir, "out", "note.txt")
	go func() {
		for i := 0; i < 100; i++ {
			if _, err := os.Stat(note); err == nil {
				interrupts <- os.Interrupt
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	r := p.run("test")
	if r.Code != 1 || !strings.Contains(r.Stdout, `  run "after"... skip`) || !strings.Contains(r.Stderr, "interrupted") {
		t.Errorf("exit %d, output:\n%s", r.Code, r.Output())
	}
	if _, err := os.Stat(note); !os.IsNotExist(err) {
		t.Errorf("the interrupted test left %s behind (stat: %v)", note, err)
	}
}

// TestTerraformTestModuleProviders: a run's module block finds its
// providers where the configuration's are installed (here the project's
// .plinth/plugins), as terraform test uses the root's terraform init.
func TestTerraformTestModuleProviders(t *testing.T) {
	needReal(t)
	p := newProject(t, "testdata/tftest/modprov")
	delete(p.opts.Env, "PLINTH_PLUGIN_PATH")
	plugins := filepath.Join(p.dir, ".plinth", "plugins")
	if err := os.MkdirAll(plugins, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, path := range linked {
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(plugins, filepath.Base(target))); err != nil {
			t.Fatal(err)
		}
	}
	r := p.run("test")
	if r.Code != 0 || !strings.Contains(r.Stdout, `  run "module"... pass`) {
		t.Errorf("exit %d, output:\n%s", r.Code, r.Output())
	}
}

// TestTerraformTestTeardownFails: a destroy that fails at the end of a
// file fails the file and the test, though every run passed.
func TestTerraformTestTeardownFails(t *testing.T) {
	p := newProject(t, "testdata/tftest/teardown")
	r := p.run("test")
	if r.Code != 1 || !strings.Contains(r.Stdout, `  run "create"... pass`) || !strings.Contains(r.Stdout, "tests/stubborn.tftest.hcl... fail") ||
		!strings.Contains(r.Stdout, "Failure! 1 passed, 0 failed.") || !strings.Contains(r.Stdout, "need to be deleted by hand:\n  - terraform_data.stubborn\n") {
		t.Errorf("exit %d, output:\n%s", r.Code, r.Output())
	}
}
