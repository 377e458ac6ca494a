package tflang

import (
	"fmt"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkReadBlock finds a "<= data" block, in the root module or a module
// instance, from its heading to its closing brace.
var checkReadBlock = regexp.MustCompile(`(?m)^  # (?:module\.\S+\.)?data\.\S+ will be read during apply\n  # \(.*\)\n <= data "[^"]+" "[^"]+" \{\n(?:.*\n)*?    \}$`)

// Where each tool's warnings are, and what they say: terraform's
// "Warning: SUMMARY" over "  on FILE line N", plinth's "warning:
// FILE:LINE:COL: SUMMARY".
var (
	tfWarning     = regexp.MustCompile(`(?m)^Warning: (.+)\n\n(?:  with .*\n)?  on (\S+) line (\d+)`)
	plinthWarning = regexp.MustCompile(`(?m)^warning: (\S+?):(\d+):\d+: (.+)$`)
)

// TestCheckDataReads: data sources nested in check blocks appear in
// plinth's plan as in terraform's, before the first apply and after it
// (read during apply, "(config will be reloaded to verify a check
// block)" or the reason they wait, with what the plan read), and both
// tools warn of the same failed reads and assertions at the same places.
func TestCheckDataReads(t *testing.T) {
	needReal(t)
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping the comparison with terraform's plan (install terraform 1.11 to run it)")
	}
	const src = "testdata/compare/check_data"
	p := newProject(t, src)
	d := newTFTree(t, tf, src)
	for _, step := range []string{"before apply", "after apply"} {
		got := p.must("preview").Output()
		want := d.must("plan", "-no-color", "-input=false")
		if diff := cmp.Diff(sortedMatches(want), sortedMatches(got)); diff != "" {
			t.Errorf("%s: the data source reads differ (-terraform +plinth):\n%s", step, diff)
		}
		if diff := cmp.Diff(tfWarnings(want), plinthWarnings(got, p.dir)); diff != "" {
			t.Errorf("%s: the warnings differ (-terraform +plinth):\n%s", step, diff)
		}
		if n := len(checkReadBlock.FindAllString(got, -1)); n != 6 {
			t.Errorf("%s: plinth's plan shows %d data source reads, want 6:\n%s", step, n, got)
		}
		p.must("up", "--yes")
		d.must("apply", "-auto-approve", "-no-color", "-input=false")
	}
	if out := p.must("state", "ls").Stdout; strings.Contains(out, "data.") {
		t.Errorf("the state records a data source:\n%s", out)
	}
}

// sortedMatches are a plan's read blocks, sorted, with the values a
// tls_public_key read shows masked: each tool made its own key.
func sortedMatches(plan string) []string {
	out := checkReadBlock.FindAllString(plan, -1)
	for i, b := range out {
		if strings.Contains(b, `<= data "tls_public_key"`) {
			out[i] = knownValue.ReplaceAllString(heredoc.ReplaceAllString(b, `= "<heredoc>"`), `= "<value>"`)
		}
	}
	sort.Strings(out)
	return out
}

var (
	heredoc    = regexp.MustCompile(`= <<-?EOT\n(?:.*\n)*?\s*EOT`)
	knownValue = regexp.MustCompile(`= "(?:[^"\\]|\\.)*"`)
)

// checkWarning is a warning's place and summary: an assertion's, or the
// provider's own for a failed read ("Read local file data source error"),
// in both tools.
func checkWarning(file, line, summary string) string {
	return fmt.Sprintf("%s:%s %s", file, line, summary)
}

func tfWarnings(out string) []string {
	var ws []string
	for _, m := range tfWarning.FindAllStringSubmatch(out, -1) {
		ws = append(ws, checkWarning(m[2], m[3], m[1]))
	}
	sort.Strings(ws)
	return ws
}

// plinthWarnings are plinth's warnings, files named relative to the
// project directory dir as terraform names them.
func plinthWarnings(out, dir string) []string {
	var ws []string
	for _, m := range plinthWarning.FindAllStringSubmatch(out, -1) {
		ws = append(ws, checkWarning(strings.TrimPrefix(m[1], dir+"/"), m[2], m[3]))
	}
	sort.Strings(ws)
	return ws
}
