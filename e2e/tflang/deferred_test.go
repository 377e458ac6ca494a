package tflang

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// readBlock finds a "<= data" block in a plan: from its heading and the
// line saying why the read waits for apply to its closing brace.
var readBlock = regexp.MustCompile(`(?m)^  # data\.\S+ will be read during apply\n  # \(.*\)\n <= data "[^"]+" "[^"]+" \{\n(?:.*\n)*?    \}$`)

// TestDeferredReadBlock: a data source read left to apply (it reads a
// file a resource of the same configuration creates) is shown as
// terraform shows it: its arguments and every computed attribute,
// "(known after apply)", or "(sensitive value)" for sensitive ones, under
// the line naming terraform's reason: config not yet known, or a
// dependency with changes pending.
func TestDeferredReadBlock(t *testing.T) {
	needReal(t)
	p := newProject(t, "testdata/deferred_read")
	got := readBlock.FindAllString(p.must("preview").Stdout, -1)
	if len(got) != 3 {
		t.Fatalf("plinth's preview shows %d data source reads, want 3:\n%v", len(got), got)
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping the comparison with terraform's plan (install terraform 1.11 to run it)")
	}
	dir := clitest.CopyDir(t, "testdata/deferred_read")
	terraform := clitest.Terraform(t, tf, dir, clitest.TerraformEnv(devOverrides(t, dir), filepath.Join(dir, ".terraform")))
	terraform("init", "-input=false", "-no-color")
	want := readBlock.FindAllString(string(terraform("plan", "-no-color")), -1)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the data source reads differ (-terraform +plinth):\n%s", diff)
	}
}
