package tflang

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// refreshingLine is terraform's line for an object read before a plan.
var refreshingLine = regexp.MustCompile(`(?m)^(\S+): Refreshing state\.\.\. \[id=[^\]]+\]$`)

// refreshed are the addresses text says it refreshed, sorted.
func refreshed(text string) []string {
	var out []string
	for _, m := range refreshingLine.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return out
}

// TestRefreshLinesSideBySide: where plinth refreshes before a plan
// (`preview --refresh`, `up --refresh`) it prints terraform's
// "Refreshing state... [id=…]" line per object, as terraform plan and
// apply do, and no "Refresh complete" lines or summary, which terraform
// never prints; a refresh that finds nothing changed lists no object
// (plinth listed every object as "changed outside of Plinth"), and a
// file deleted outside is not noted by either tool: the plan creates it
// again.
func TestRefreshLinesSideBySide(t *testing.T) {
	needReal(t)
	const src = "testdata/refresh_text"
	want := []string{"local_file.f", "random_pet.p"}
	p := newProject(t, src)
	p.must("up", "--yes")
	for _, args := range [][]string{{"preview", "--refresh"}, {"up", "--yes", "--refresh"}} {
		out := p.must(args...).Stdout
		if diff := cmp.Diff(want, refreshed(out)); diff != "" {
			t.Errorf("plinth %s: refreshed objects (-want +got):\n%s\n%s", strings.Join(args, " "), diff, out)
		}
		for _, never := range []string{"Refresh complete", "changed outside of Plinth", "deleted outside"} {
			if strings.Contains(out, never) {
				t.Errorf("plinth %s says %q:\n%s", strings.Join(args, " "), never, out)
			}
		}
	}
	if err := os.Remove(filepath.Join(p.dir, "out.txt")); err != nil {
		t.Fatal(err)
	}
	out := p.must("preview", "--refresh").Stdout
	if !strings.Contains(out, "# local_file.f will be created") || strings.Contains(out, "outside of Plinth") {
		t.Errorf("plinth preview --refresh after the file was deleted: want the file created and no note:\n%s", out)
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping its side")
	}
	dir := clitest.CopyDir(t, src)
	env := clitest.TerraformEnv(devOverrides(t, dir), filepath.Join(dir, ".terraform"))
	terraform := clitest.Terraform(t, tf, dir, env)
	terraform("init", "-input=false", "-no-color")
	terraform("apply", "-auto-approve", "-no-color")
	for _, args := range [][]string{{"plan", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
		out := string(terraform(args...))
		if diff := cmp.Diff(want, refreshed(out)); diff != "" {
			t.Errorf("terraform %s: refreshed objects (-want +got):\n%s\n%s", args[0], diff, out)
		}
	}
	if err := os.Remove(filepath.Join(dir, "out.txt")); err != nil {
		t.Fatal(err)
	}
	if out := string(terraform("plan", "-no-color")); !strings.Contains(out, "# local_file.f will be created") || strings.Contains(out, "outside of Terraform") {
		t.Errorf("terraform plan after the file was deleted: want the file created and no note:\n%s", out)
	}
}
