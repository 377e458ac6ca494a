package tflang

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestEmptyDynamicBlockMatchesTerraform: a plan that empties a dynamic
// block's list shows the block removed, as terraform 1.11's does, the
// attribute names aligned over the hidden write-only one too (plinth
// aligned them over the others), and a plan that creates with an empty
// list shows no block.
func TestEmptyDynamicBlockMatchesTerraform(t *testing.T) {
	needReal(t)
	t.Parallel()
	const src = "testdata/dynamic_empty"
	empty := "names=[]"
	p := newProject(t, src)
	gotCreateEmpty := planBlocks(p.must("preview", "--color", "never", "--var", empty).Stdout)
	p.must("up", "--yes")
	got := planBlocks(p.must("preview", "--color", "never", "--var", empty).Stdout)
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping the comparison with terraform's plan")
	}
	dir := clitest.CopyDir(t, src)
	terraform := clitest.Terraform(t, tf, dir, clitest.TerraformEnv(devOverrides(t, dir), filepath.Join(dir, ".terraform")))
	terraform("init", "-input=false", "-no-color")
	wantCreateEmpty := planBlocks(string(terraform("plan", "-no-color", "-var", empty)))
	terraform("apply", "-auto-approve", "-no-color")
	want := planBlocks(string(terraform("plan", "-no-color", "-var", empty)))
	if diff := cmp.Diff(wantCreateEmpty, gotCreateEmpty); diff != "" {
		t.Errorf("the plans creating with an empty list differ (-terraform +plinth):\n%s", diff)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the plans emptying the list differ (-terraform +plinth):\n%s", diff)
	}
}
