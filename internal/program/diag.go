package program

import (
	"fmt"
	"sort"
	"strings"
)

// Severity ranks a diagnostic.
type Severity uint8

// Severities. Warnings never stop a program.
const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Diagnostic is a problem found in a program, for a person to read: a short
// fixed Summary, and a Detail in full sentences saying what is wrong and how
// to fix it. File, Line and Column locate it (Line 0 when unknown); Path
// names the place in the program, such as "resources.pet.properties.length".
type Diagnostic struct {
	Severity Severity
	Summary  string
	Detail   string
	File     string
	Line     int
	Column   int
	Path     string
}

// Error formats the diagnostic as "file:line:col: summary (path)" followed
// by the indented detail.
func (d Diagnostic) Error() string {
	var b strings.Builder
	if d.File != "" {
		b.WriteString(d.File)
		if d.Line > 0 {
			fmt.Fprintf(&b, ":%d", d.Line)
		}
		if d.Line > 0 && d.Column > 0 {
			fmt.Fprintf(&b, ":%d", d.Column)
		}
		b.WriteString(": ")
	}
	if d.Severity == Warning {
		b.WriteString("warning: ")
	}
	b.WriteString(d.Summary)
	if d.Path != "" {
		fmt.Fprintf(&b, " (%s)", d.Path)
	}
	if d.Detail != "" {
		b.WriteString("\n    ")
		b.WriteString(strings.ReplaceAll(d.Detail, "\n", "\n    "))
	}
	return b.String()
}

// Diagnostics is a list of diagnostics; as an error it holds at least one
// error-severity diagnostic.
type Diagnostics []Diagnostic

// Error lists every diagnostic, one block per diagnostic.
func (ds Diagnostics) Error() string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Error()
	}
	return strings.Join(parts, "\n")
}

// Unwrap returns the error-severity diagnostics, what makes the list an
// error; it lets errors.As find a single Diagnostic, and the display show
// each on its own.
func (ds Diagnostics) Unwrap() []error {
	var errs []error
	for _, d := range ds {
		if d.Severity == Error {
			errs = append(errs, d)
		}
	}
	return errs
}

// Diagnostic implements internal/display's interface for the list: each
// diagnostic in it is shown on its own.
func (ds Diagnostics) Diagnostic() (summary, where, path, detail string) {
	return "Invalid program", "", "", ""
}

// Diagnostic implements internal/display's interface: the summary, the
// position (file:line:col) as where, the path in the program, the detail.
func (d Diagnostic) Diagnostic() (summary, where, path, detail string) {
	return d.Summary, d.Position(), d.Path, d.Detail
}

// Position formats where the diagnostic applies: "file:line:col", less
// when the line or column is unknown, "" when the file is.
func (d Diagnostic) Position() string {
	switch {
	case d.File == "":
		return ""
	case d.Line == 0:
		return d.File
	case d.Column == 0:
		return fmt.Sprintf("%s:%d", d.File, d.Line)
	}
	return fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column)
}

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Errors returns the error-severity diagnostics.
func (ds Diagnostics) Errors() Diagnostics { return ds.filter(Error) }

// Warnings returns the warning-severity diagnostics.
func (ds Diagnostics) Warnings() Diagnostics { return ds.filter(Warning) }

func (ds Diagnostics) filter(s Severity) Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == s {
			out = append(out, d)
		}
	}
	return out
}

// sorted orders diagnostics by position, so reports read top to bottom.
func (ds Diagnostics) sorted() Diagnostics {
	out := append(Diagnostics(nil), ds...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Column < out[j].Column
	})
	return out
}

// asError returns the diagnostics as an error if any is an error, else nil.
func (ds Diagnostics) asError() error {
	if !ds.HasErrors() {
		return nil
	}
	return ds.sorted()
}

// pos is a position in the program file.
type pos struct {
	Line, Column int
}

// diags collects diagnostics for one file.
type diags struct {
	file string
	list Diagnostics
}

func (d *diags) errorf(at pos, path, summary, detail string, args ...any) {
	d.add(Error, at, path, summary, fmt.Sprintf(detail, args...))
}

func (d *diags) warnf(at pos, path, summary, detail string, args ...any) {
	d.add(Warning, at, path, summary, fmt.Sprintf(detail, args...))
}

func (d *diags) add(s Severity, at pos, path, summary, detail string) {
	d.list = append(d.list, Diagnostic{
		Severity: s, Summary: summary, Detail: detail,
		File: d.file, Line: at.Line, Column: at.Column, Path: path,
	})
}

// suggest returns ` Did you mean "x"?` for the candidate nearest to name,
// or "" when none is near enough to be a likely typo.
func suggest(name string, candidates []string) string {
	best, bestDist := "", -1
	for _, c := range candidates {
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		if bestDist < 0 || d < bestDist || (d == bestDist && c < best) {
			best, bestDist = c, d
		}
	}
	limit := max(2, len(name)/3)
	if best == "" || bestDist > limit {
		return ""
	}
	return fmt.Sprintf(" Did you mean %q?", best)
}

// editDistance is the Levenshtein distance between a and b, by bytes.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		if a == b {
			return 0
		}
		return max(len(a), len(b))
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// ResourceError is a resource the engine could not register: where the
// program declares it, and the engine's error.
type ResourceError struct {
	Diagnostic
	Err error
}

func (e *ResourceError) Unwrap() error { return e.Err }

// plural formats a count of things: "1 item", "3 items".
func plural(n int, thing string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", thing)
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// quoteList formats names as "a", "b" and "c", at most limit of them.
func quoteList(names []string, limit int) string {
	q := make([]string, 0, len(names))
	for i, n := range names {
		if i == limit {
			q = append(q, fmt.Sprintf("and %d more", len(names)-limit))
			break
		}
		q = append(q, fmt.Sprintf("%q", n))
	}
	return strings.Join(q, ", ")
}
