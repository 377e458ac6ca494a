package hcl

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plinth-iac/plinth/internal/program"
)

// sources holds the text of every file read, to quote in diagnostics.
// Files are named by the path shown to people.
type sources map[string][]byte

// diagnostic turns an HCL diagnostic into a program one: file:line:col,
// and the detail preceded by the source line with a caret under the
// place, as terraform shows it.
func (s sources) diagnostic(d *hcl.Diagnostic) program.Diagnostic {
	out := program.Diagnostic{Summary: d.Summary, Detail: d.Detail}
	if d.Severity == hcl.DiagWarning {
		out.Severity = program.Warning
	}
	if d.Subject == nil {
		return out
	}
	out.File, out.Line, out.Column = d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column
	if snip := s.snippet(*d.Subject); snip != "" {
		out.Detail = snip + "\n\n" + out.Detail
	}
	return out
}

// snippet quotes the range's first line with carets under the range.
func (s sources) snippet(rng hcl.Range) string {
	src, ok := s[rng.Filename]
	if !ok || rng.Start.Line < 1 {
		return ""
	}
	lines := strings.Split(string(src), "\n")
	if rng.Start.Line > len(lines) {
		return ""
	}
	line := strings.TrimRight(lines[rng.Start.Line-1], "\r")
	width := 1
	if rng.End.Line == rng.Start.Line && rng.End.Column > rng.Start.Column {
		width = rng.End.Column - rng.Start.Column
	}
	col := min(max(rng.Start.Column-1, 0), len(line))
	width = max(min(width, len(line)-col), 1)
	num := fmt.Sprintf("%d", rng.Start.Line)
	pad := strings.Repeat(" ", len(num))
	indent := strings.Map(func(r rune) rune {
		if r == '\t' {
			return '\t'
		}
		return ' '
	}, line[:col])
	return fmt.Sprintf("%s | %s\n%s | %s%s", num, line, pad, indent, strings.Repeat("^", width))
}

// errorOf returns the error diagnostics as an error, nil if there are
// none.
func (s sources) errorOf(ds hcl.Diagnostics) error {
	if !ds.HasErrors() {
		return nil
	}
	var errs program.Diagnostics
	for _, d := range ds {
		if d.Severity == hcl.DiagError {
			errs = append(errs, s.diagnostic(d))
		}
	}
	return errs
}

// errorAt makes an error diagnostic at a range.
func errorAt(rng hcl.Range, summary, format string, args ...any) *hcl.Diagnostic {
	r := rng
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: &r}
}
