package tftest

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/program"
	tfhcl "github.com/plinth-iac/plinth/internal/program/hcl"
)

// diag is a diagnostic of a run, from the configuration or the test
// file.
type diag struct {
	severity        hcl.DiagnosticSeverity
	summary, detail string
	file            string
	line, column    int
	quoted          bool   // detail already quotes the source line (the configuration's diagnostics do)
	run             string // the run block it is in, for one about the test file
}

// diagAt is a diagnostic about a range of the test file.
func diagAt(rng hcl.Range, sev hcl.DiagnosticSeverity, summary, format string, args ...any) diag {
	return diag{severity: sev, summary: summary, detail: fmt.Sprintf(format, args...),
		file: rng.Filename, line: rng.Start.Line, column: rng.Start.Column}
}

func warningAt(rng hcl.Range, summary, detail string) diag {
	return diagAt(rng, hcl.DiagWarning, summary, "%s", detail)
}

// fromHCL converts diagnostics about the test file.
func fromHCL(ds hcl.Diagnostics) []diag {
	var out []diag
	for _, d := range ds {
		x := diag{severity: d.Severity, summary: d.Summary, detail: d.Detail}
		if d.Subject != nil {
			x.file, x.line, x.column = d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column
		}
		out = append(out, x)
	}
	return out
}

// fromProgram converts the configuration's diagnostics.
func fromProgram(ds []program.Diagnostic) []diag {
	out := make([]diag, 0, len(ds))
	for _, d := range ds {
		sev := hcl.DiagError
		if d.Severity == program.Warning {
			sev = hcl.DiagWarning
		}
		out = append(out, diag{severity: sev, summary: d.Summary, detail: d.Detail, file: d.File, line: d.Line, column: d.Column, quoted: true})
	}
	return out
}

// report writes terraform test's report.
type report struct {
	w       io.Writer
	verbose bool
}

func (r *report) line(format string, args ...any) {
	fmt.Fprintf(r.w, format+"\n", args...)
}

// diags writes diagnostics as terraform does: severity and summary, the
// place, the source line, the detail.
func (r *report) diags(fr *fileRunner, ds []diag) {
	for _, d := range ds {
		sev := "Error"
		if d.severity == hcl.DiagWarning {
			sev = "Warning"
		}
		r.line("\n%s: %s", sev, d.summary)
		if d.file != "" {
			in := ""
			if d.run != "" && d.file == fr.f.Name {
				in = fmt.Sprintf(", in run %q", d.run)
			}
			r.line("\n  on %s line %d%s:", d.file, d.line, in)
			if q := fr.quote(d); q != "" && !d.quoted {
				r.line("%s", q)
			}
		}
		r.line("\n%s", d.detail)
	}
}

// quote is the line of the test file a diagnostic is about.
func (fr *fileRunner) quote(d diag) string {
	if d.file != fr.f.Name || d.line < 1 {
		return ""
	}
	lines := strings.Split(string(fr.f.src), "\n")
	if d.line > len(lines) {
		return ""
	}
	return fmt.Sprintf("  %d: %s", d.line, strings.TrimRight(lines[d.line-1], "\r"))
}

// values writes a run's resources and outputs, for --verbose.
func (r *report) values(sc *tfhcl.Scoped) {
	vals := sc.Values()
	keys := make([]string, 0, len(vals))
	for k := range vals {
		if !strings.HasPrefix(k, "var.") && !strings.HasPrefix(k, "local.") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	r.line("")
	for _, k := range keys {
		r.line("  %s = %s", k, show(vals[k]))
	}
	r.line("")
}

// show is a value as HCL, with unknowns as terraform's plans show them.
func show(v cty.Value) string {
	v, marks := v.UnmarkDeep()
	if len(marks) > 0 {
		return "(sensitive value)"
	}
	if !v.IsWhollyKnown() {
		return "(known after apply)"
	}
	return strings.TrimSpace(string(hclwrite.TokensForValue(v).Bytes()))
}

// writeTotals writes the last line: Success! or Failure! and the counts.
func writeTotals(w io.Writer, s Summary) {
	word := "Success!"
	if !s.OK() {
		word = "Failure!"
	}
	if s.Skipped > 0 {
		fmt.Fprintf(w, "\n%s %d passed, %d failed, %d skipped.\n", word, s.Passed, s.Failed, s.Skipped)
		return
	}
	fmt.Fprintf(w, "\n%s %d passed, %d failed.\n", word, s.Passed, s.Failed)
}
