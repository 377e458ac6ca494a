package tflang

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestDestroyPlanShowsOutputs: the preview of plinth destroy ends, as
// terraform plan -destroy does, with "Changes to Outputs:" listing every
// output going away ("-> null"), the null attributes of an object
// removed with it ("- b = null"). Plinth listed no outputs.
func TestDestroyPlanShowsOutputs(t *testing.T) {
	t.Parallel()
	const src = "testdata/destroy_outputs"
	p := newProject(t, src)
	p.must("up", "--yes")
	got := planTail(p.must("destroy", "--yes", "--color", "never").Stdout)
	if !strings.Contains(strings.Join(got, "\n"), "Changes to Outputs:\n  - key") {
		t.Errorf("plinth destroy's preview shows no outputs going away:\n%s", strings.Join(got, "\n"))
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping the comparison with terraform plan -destroy")
	}
	dir := clitest.CopyDir(t, src)
	terraform := clitest.Terraform(t, tf, dir, clitest.TerraformEnv(devOverrides(t, dir), filepath.Join(dir, ".terraform")))
	terraform("init", "-input=false", "-no-color")
	terraform("apply", "-auto-approve", "-no-color")
	want := planTail(string(terraform("plan", "-destroy", "-no-color")))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the destroy plans differ (-terraform +plinth):\n%s", diff)
	}
}

// planTail are the lines of a plan from its "Plan:" line to the end of
// its "Changes to Outputs:", without the apply that may follow.
func planTail(plan string) []string {
	var out []string
	for _, l := range strings.Split(plan, "\n") {
		if len(out) == 0 && !strings.HasPrefix(l, "Plan:") {
			continue
		}
		if strings.Contains(l, ": Destroying...") || strings.HasPrefix(l, "Do you want") {
			break
		}
		out = append(out, l)
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	return out
}
