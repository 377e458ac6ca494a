package tflang

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestTargetNewInstanceMatchesTerraform: --target of one new instance
// of a counted resource and of a for_each one, which other resources and
// outputs name whole (random_pet.p[*].id, keys(random_id.f)) and by
// instance (random_pet.p[1].id): the plan and the outputs after the
// apply are terraform's (the splat lists the one instance there is;
// plinth listed an empty string for the instance left out, and a
// resource naming it was evaluated), and an untargeted apply then makes
// the rest, as terraform's does.
func TestTargetNewInstanceMatchesTerraform(t *testing.T) {
	needReal(t)
	t.Parallel()
	const src = "testdata/target_splat"
	targets := []string{`random_pet.p[0]`, `random_id.f["a"]`}
	p := newProject(t, src)
	var args []string
	for _, a := range targets {
		args = append(args, "--target", a)
	}
	plinthPlan := p.must(append([]string{"preview", "--color", "never"}, args...)...).Stdout
	gotPlan := planWithOutputs(plinthPlan)
	p.must(append([]string{"up", "--yes"}, args...)...)
	got := []map[string]any{shapeOf(p.outputs())}
	p.must("up", "--yes")
	got = append(got, shapeOf(p.outputs()))
	if r := p.run("preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("a preview after the untargeted up found changes (exit %d):\n%s", r.Code, r.Output())
	}
	if want := 1; len(got[0]["pets"].([]any)) != want {
		t.Errorf("after the targeted up, pets = %v, want %d pet", got[0]["pets"], want)
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping the comparison with terraform")
	}
	dir := clitest.CopyDir(t, src)
	terraform := clitest.Terraform(t, tf, dir, clitest.TerraformEnv(devOverrides(t, dir), filepath.Join(dir, ".terraform")))
	terraform("init", "-input=false", "-no-color")
	args = nil
	for _, a := range targets {
		args = append(args, "-target="+a)
	}
	tfPlan := string(terraform(append([]string{"plan", "-no-color"}, args...)...))
	wantPlan := planWithOutputs(tfPlan)
	const warning = "Resource targeting is in effect"
	if strings.Contains(tfPlan, warning) != strings.Contains(plinthPlan, warning) {
		t.Errorf("%q in terraform's plan: %v, in plinth's: %v\n%s", warning, strings.Contains(tfPlan, warning), strings.Contains(plinthPlan, warning), plinthPlan)
	}
	terraform(append([]string{"apply", "-auto-approve", "-no-color"}, args...)...)
	want := []map[string]any{shapeOf(terraformOutputs(t, terraform))}
	terraform("apply", "-auto-approve", "-no-color")
	want = append(want, shapeOf(terraformOutputs(t, terraform)))
	if diff := cmp.Diff(wantPlan, gotPlan); diff != "" {
		t.Errorf("the targeted plans differ (-terraform +plinth):\n%s", diff)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the outputs after the targeted and the full apply differ (-terraform +plinth):\n%s", diff)
	}
}

// planWithOutputs are a plan's resource blocks and its "Changes to
// Outputs:", up to the warnings and notes terraform (and plinth, in its
// own form of diagnostic) writes after them.
func planWithOutputs(plan string) []string {
	out := planBlocks(plan)
	tail := planTail(plan)
	for i, l := range tail {
		if strings.HasPrefix(l, "Warning:") || strings.HasPrefix(l, "warning:") || strings.HasPrefix(l, "─") || strings.HasPrefix(l, "Note:") {
			tail = tail[:i]
			break
		}
	}
	for len(tail) > 0 && strings.TrimSpace(tail[len(tail)-1]) == "" {
		tail = tail[:len(tail)-1]
	}
	return append(out, tail...)
}

// shapeOf replaces the random pet names of target_splat's outputs by
// "<pet>", keeping everything else.
func shapeOf(out map[string]any) map[string]any {
	if pets, ok := out["pets"].([]any); ok {
		shaped := make([]any, len(pets))
		for i := range pets {
			shaped[i] = "<pet>"
		}
		out["pets"] = shaped
	}
	return out
}
