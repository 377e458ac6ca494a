package tflang

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// Values in a plan that come from randomness or the clock, and so differ
// between two runs: an old value about to be recomputed, an unchanged
// id, and the lines of a heredoc (a certificate).
var (
	recomputedValue = regexp.MustCompile(`= ("[^"]*"|-?[0-9.]+) -> \(known after apply\)`)
	unchangedID     = regexp.MustCompile(`^(\s+id\s+= )"[^"]*"$`)
)

// TestNestedDiffMatchesTerraform: the first step's plan creates nested
// values and a nested block; the second step of testdata/nested_diff
// changes a map (random_pet's keepers, time_static's triggers), a list
// (allowed_uses), an object with a nested map and list (terraform_data's
// input) and a nested block (the certificate's subject, whose
// common_name forces replacement). plinth's preview shows each resource's
// block line for line as terraform 1.11's plan does, once the values that
// come from randomness are normalised.
func TestNestedDiffMatchesTerraform(t *testing.T) {
	needReal(t)
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping the comparison with terraform's plan (install terraform 1.11 to run it)")
	}
	p := newProject(t, "testdata/nested_diff")
	gotCreate := planBlocks(p.must("preview", "--color", "never").Stdout)
	p.must("up", "--yes")
	toStep2(t, p.dir)
	got := planBlocks(p.must("preview", "--color", "never").Stdout)
	p.must("destroy", "--yes")

	dir := clitest.CopyDir(t, "testdata/nested_diff")
	terraform := clitest.Terraform(t, tf, dir, clitest.TerraformEnv(devOverrides(t, dir), filepath.Join(dir, ".terraform")))
	terraform("init", "-input=false", "-no-color")
	wantCreate := planBlocks(string(terraform("plan", "-no-color")))
	terraform("apply", "-auto-approve", "-no-color")
	toStep2(t, dir)
	want := planBlocks(string(terraform("plan", "-no-color")))
	terraform("destroy", "-auto-approve", "-no-color")
	if len(want) == 0 {
		t.Fatal("terraform's plan has no resource blocks")
	}
	if diff := cmp.Diff(wantCreate, gotCreate); diff != "" {
		t.Errorf("the first step's plans differ (-terraform +plinth):\n%s", diff)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the plans' resource blocks differ (-terraform +plinth):\n%s", diff)
	}
}

// toStep2 replaces main.tf with the configuration's second step.
func toStep2(t *testing.T, dir string) {
	t.Helper()
	step2, err := os.ReadFile(filepath.Join(dir, "step2.tf.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), step2, 0o644); err != nil {
		t.Fatal(err)
	}
}

// planBlocks are the lines of a plan's resource blocks, from the first
// "  # ADDRESS ..." heading to the "Plan:" line, normalised.
func planBlocks(plan string) []string {
	var out []string
	in, heredoc := false, false
	for _, l := range strings.Split(plan, "\n") {
		switch {
		case strings.HasPrefix(l, "Plan:"):
			return out
		case strings.HasPrefix(l, "  # "):
			in = true
		case !in:
			continue
		case strings.HasSuffix(l, "<<-EOT"):
			heredoc = true
		case heredoc && strings.HasPrefix(strings.TrimSpace(l), "EOT"):
			heredoc = false
		case heredoc:
			l = "<heredoc line>"
		}
		l = recomputedValue.ReplaceAllString(l, "= <old> -> (known after apply)")
		l = unchangedID.ReplaceAllString(l, "${1}<id>")
		out = append(out, l)
	}
	return out
}
