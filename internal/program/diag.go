package program

import (
	"fmt"
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
