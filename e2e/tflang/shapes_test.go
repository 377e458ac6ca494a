package tflang

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestSchemaShapesMatchTerraform: testdata/shapes creates, then changes
// twice, a resource of internal/terraform-provider-shapes whose
// attributes and blocks have the shapes terraform's plan shows apart by
// the provider's schema: sets (elements matched by value, no indices;
// tags, which terraform always shows whole), a map (quoted keys), an
// object and a single nested attribute (bare names), a set of blocks (a
// changed one shown removed and added), a list of blocks with a block
// nested in it, and a single block; unchanged blocks are counted over
// every block type. plinth's preview of each step, and its destroy,
// show the resource's block line for line as terraform 1.11's plan and
// plan -destroy do (a nested attribute's members go "-> null" as a
// block's do; an object's do not).
func TestSchemaShapesMatchTerraform(t *testing.T) {
	needReal(t)
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping the comparison with terraform's plan (install terraform 1.11 to run it)")
	}
	const src = "testdata/shapes"
	bin := filepath.Join(t.TempDir(), "terraform-provider-shapes_v1.0.0")
	build := exec.Command("go", "build", "-o", bin, "./internal/terraform-provider-shapes")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the shapes provider: %v\n%s", err, out)
	}
	p := newProject(t, src)
	p.opts.Env["PLINTH_PLUGIN_PATH"] = filepath.Dir(bin) + string(os.PathListSeparator) + pluginDir
	dir := clitest.CopyDir(t, src)
	terraform := clitest.Terraform(t, tf, dir, clitest.TerraformEnv(providerMirror(t, "shapes", bin), filepath.Join(dir, ".terraform")))
	terraform("init", "-input=false", "-no-color")
	for step, file := range []string{"main.tf", "step2.tf.txt", "step3.tf.txt"} {
		for _, d := range []string{p.dir, dir} {
			copyStep(t, filepath.Join(d, file), filepath.Join(d, "main.tf"))
		}
		got := planBlocks(p.must("preview", "--color", "never").Stdout)
		want := planBlocks(string(terraform("plan", "-no-color")))
		if len(want) == 0 {
			t.Fatalf("step %d: terraform's plan has no resource blocks", step+1)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("step %d: the plans differ (-terraform +plinth):\n%s", step+1, diff)
		}
		p.must("up", "--yes")
		terraform("apply", "-auto-approve", "-no-color")
	}
	want := planBlocks(string(terraform("plan", "-destroy", "-no-color")))
	got := planBlocks(p.must("destroy", "--yes", "--color", "never").Stdout)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the destroy plans differ (-terraform +plinth):\n%s", diff)
	}
}

// copyStep copies a configuration step's file over main.tf.
func copyStep(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
