package tflang

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestImpureFunctionsInPlans: uuid(), timestamp() and bcrypt() are
// unknown in plinth's preview as in terraform's plan: before the first
// apply and after it, both list the same "(known after apply)" lines
// and exit with the same -detailed-exitcode (2: the outputs built on
// timestamp() and bcrypt() change on every plan).
func TestImpureFunctionsInPlans(t *testing.T) {
	needReal(t)
	const src = "testdata/impure"
	p := newProject(t, src)
	var got []plan
	preview := func() {
		r := p.run("preview", "--detailed-exitcode")
		got = append(got, plan{r.Code, knownAfterApply(r.Stdout)})
	}
	preview()
	p.must("up", "--yes")
	preview()
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping the comparison with terraform")
	}
	dir := clitest.CopyDir(t, src)
	env := clitest.TerraformEnv(devOverrides(t, dir), filepath.Join(dir, ".terraform"))
	terraform := clitest.Terraform(t, tf, dir, env)
	terraform("init", "-input=false", "-no-color")
	var want []plan
	tfPlan := func() {
		cmd := exec.Command(tf, "plan", "-detailed-exitcode", "-no-color")
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.Output()
		code := 0
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		want = append(want, plan{code, knownAfterApply(string(out))})
	}
	tfPlan()
	terraform("apply", "-auto-approve", "-no-color")
	tfPlan()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plans before and after apply differ (-terraform +plinth):\n%s", diff)
	}
}

// plan is what TestImpureFunctionsInPlans compares of a plan.
type plan struct {
	Code  int
	Lines []string // the lines saying "(known after apply)", trimmed
}

func knownAfterApply(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "(known after apply)") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return lines
}
