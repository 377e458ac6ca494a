package tflang

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// readLine is a line terraform prints for a data source read or an
// ephemeral resource's opening or closing.
var (
	readLine = regexp.MustCompile(`^(data|ephemeral)\.[^ ]+: (Reading|Read complete|Opening|Closing)`)
	duration = regexp.MustCompile(`after [0-9ms.]+`)
)

// TestApplyTextMatchesTerraform: on testdata/apply_text, `plinth up`
// prints the same read lines as `terraform apply` (a data source read
// while planning, one read during apply, an ephemeral resource opened
// and closed in each phase; sorted, as reads run concurrently) and the
// same "Outputs:" (nested values, heredocs, tolist/toset/tomap,
// <sensitive>), once the lines of the random key's PEM are normalised.
func TestApplyTextMatchesTerraform(t *testing.T) {
	needReal(t)
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping the comparison with terraform's apply (install terraform 1.11 to run it)")
	}
	const src = "testdata/apply_text"
	p := newProject(t, src)
	got := p.must("up", "--yes", "--color", "never").Stdout
	p.must("destroy", "--yes")
	dir := clitest.CopyDir(t, src)
	terraform := clitest.Terraform(t, tf, dir, clitest.TerraformEnv(devOverrides(t, dir), filepath.Join(dir, ".terraform")))
	terraform("init", "-input=false", "-no-color")
	want := string(terraform("apply", "-auto-approve", "-no-color"))
	terraform("destroy", "-auto-approve", "-no-color")
	if diff := cmp.Diff(readLines(want), readLines(got)); diff != "" {
		t.Errorf("the read lines differ (-terraform +plinth):\n%s", diff)
	}
	if diff := cmp.Diff(outputLines(want), outputLines(got)); diff != "" {
		t.Errorf("the outputs differ (-terraform +plinth):\n%s", diff)
	}
}

// readLines are an apply's read, open and close lines, sorted, their
// durations (which depend on the machine's load) left out.
func readLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if readLine.MatchString(l) {
			out = append(out, duration.ReplaceAllString(l, "after <duration>"))
		}
	}
	sort.Strings(out)
	return out
}

// outputLines are the lines after "Outputs:", a heredoc's inner lines
// normalised.
func outputLines(text string) []string {
	_, outs, ok := strings.Cut(text, "\nOutputs:\n")
	if !ok {
		return nil
	}
	var out []string
	heredoc := false
	for _, l := range strings.Split(strings.TrimSpace(outs), "\n") {
		switch {
		case strings.HasSuffix(l, "<<EOT"):
			heredoc = true
		case heredoc && l == "EOT":
			heredoc = false
		case heredoc && !strings.HasPrefix(l, "-----"):
			l = "<heredoc line>"
		}
		out = append(out, l)
	}
	return out
}
