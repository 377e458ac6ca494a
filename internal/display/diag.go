package display

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
)

// Diagnostic is a message for people: a short fixed Summary, where it
// applies (a file position, a URN or a stored file) and a Detail in full
// sentences saying what is wrong and how to fix it.
type Diagnostic struct {
	Severity engine.Severity
	Summary  string
	// Where is a file:line:col, a URN or a path on disk; "" if nowhere.
	Where string
	// Path is the place inside a program, such as resources.pet.type.
	Path   string
	Detail string
	// Logged says the program logged it (Detail is its message): the
	// Pulumi style shows it as pulumi shows a log message.
	Logged bool
}

// Error is an error that already reads as a diagnostic. Commands return
// it for mistakes they find themselves.
type Error struct {
	Summary string
	Where   string
	Detail  string
}

// Diagnostic implements Diagnosable.
func (e *Error) Diagnostic() (summary, where, path, detail string) {
	return e.Summary, e.Where, "", e.Detail
}

func (e *Error) Error() string {
	if e.Where != "" {
		return e.Where + ": " + e.Summary + ": " + e.Detail
	}
	return e.Summary + ": " + e.Detail
}

// Errorf makes an *Error with a formatted detail.
func Errorf(summary, detail string, args ...any) *Error {
	return &Error{Summary: summary, Detail: fmt.Sprintf(detail, args...)}
}

// summarised gives an error of no known kind the summary of what was
// being done when it happened.
type summarised struct {
	summary string
	err     error
}

func (s *summarised) Error() string { return s.err.Error() }
func (s *summarised) Unwrap() error { return s.err }

// Summarise gives err the summary to show if it is of no kind Diagnose
// knows: "Cannot read the program", "Interrupted". An error of a known
// kind (a wrong passphrase, a locked stack, ...) keeps its own summary.
// Summarise(s, nil) is nil.
func Summarise(summary string, err error) error {
	if err == nil {
		return nil
	}
	return &summarised{summary: summary, err: err}
}

// Diagnosable is an error that says how it reads to a person. The packages
// whose errors users see implement it at the source (the engine's, the
// state's, the secrets', the plugin finder's, the program's), so the
// display knows none of their types and reads nothing out of their text.
type Diagnosable interface {
	// Diagnostic returns a short fixed summary ("Stack is locked"); where
	// the problem is (a file:line:col, a URN, a stored file; "" if
	// nowhere); the path of the property or the place in the program
	// ("resources.pet.type"; "" if none); and a detail in full sentences
	// saying what is wrong and how to fix it, "" to show the error's
	// message as wrapped, with the context callers added.
	//
	// An empty summary says the error has no kind of its own and only
	// tells where (a failed step's URN): the summary comes from the error
	// it wraps. An error that gathers several (Unwrap() []error, such as a
	// failed operation's steps or a program's diagnostics) is shown as one
	// diagnostic per part, and its summary is given to parts of no kind.
	Diagnostic() (summary, where, path, detail string)
}

// diagnosableList is a Diagnosable that gathers several errors.
type diagnosableList interface {
	Diagnosable
	Unwrap() []error
}

// Diagnose turns an error into diagnostics: one per program problem or
// failed step, each with a summary that says what kind of problem it is.
// Go stack traces (from a provider that panicked) are cut unless verbose.
func Diagnose(err error, verbose bool) []Diagnostic {
	if err == nil {
		return nil
	}
	var list diagnosableList
	if errors.As(err, &list) {
		summary, _, _, _ := list.Diagnostic()
		var out []Diagnostic
		for _, part := range list.Unwrap() {
			for _, d := range Diagnose(part, verbose) {
				if d.Summary == genericSummary {
					d.Summary, d.Where = summary, whereIn(part)
				}
				out = append(out, d)
			}
		}
		return out
	}
	d := diagnoseOne(err)
	d.Severity = engine.SeverityError
	d.Detail = trimStack(d.Detail, verbose)
	return []Diagnostic{d}
}

// FromProgram converts one program diagnostic (such as a warning).
func FromProgram(d program.Diagnostic) Diagnostic {
	sev := engine.SeverityError
	if d.Severity == program.Warning {
		sev = engine.SeverityWarning
	}
	return Diagnostic{Severity: sev, Summary: d.Summary, Where: d.Position(), Path: d.Path, Detail: d.Detail}
}

// diagnoseOne names the kind of a single error: the first Diagnosable
// with a summary in its chain, else a cancellation, else the fallback.
func diagnoseOne(err error) Diagnostic {
	if k := find(err, func(d Diagnosable) bool { s, _, _, _ := d.Diagnostic(); return s != "" }); k != nil {
		summary, where, path, detail := k.Diagnostic()
		if detail == "" {
			detail = err.Error()
		}
		return Diagnostic{Summary: summary, Where: where, Path: path, Detail: detail}
	}
	if errors.Is(err, context.Canceled) {
		return Diagnostic{Summary: "Cancelled", Detail: err.Error()}
	}
	return fallback(err)
}

// whereIn returns the first place an error's chain names, "" if none.
func whereIn(err error) string {
	k := find(err, func(d Diagnosable) bool { _, w, _, _ := d.Diagnostic(); return w != "" })
	if k == nil {
		return ""
	}
	_, where, _, _ := k.Diagnostic()
	return where
}

// find returns the first Diagnosable in err's chain, in the order
// errors.As looks, for which ok is true; nil if there is none.
func find(err error, ok func(Diagnosable) bool) Diagnosable {
	for err != nil {
		if d, is := err.(Diagnosable); is && ok(d) {
			return d
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if d := find(e, ok); d != nil {
					return d
				}
			}
			return nil
		default:
			return nil
		}
	}
	return nil
}

// fallback names an error of no specific kind: by the summary the caller
// gave it, else by what failed (a file), else genericSummary.
func fallback(err error) Diagnostic {
	var (
		sm *summarised
		pe *fs.PathError
	)
	switch {
	case errors.As(err, &sm):
		return Diagnostic{Summary: sm.summary, Detail: err.Error()}
	case errors.As(err, &pe):
		return Diagnostic{Summary: "Cannot access " + filepath.Base(pe.Path), Where: pe.Path, Detail: err.Error()}
	}
	return Diagnostic{Summary: genericSummary, Detail: err.Error()}
}

// genericSummary is the summary of an error of no known kind.
const genericSummary = "Error"

// trimStack cuts a Go stack trace (a line starting "goroutine N [") and
// what follows from a message.
func trimStack(s string, verbose bool) string {
	if verbose {
		return s
	}
	i := strings.Index(s, "\ngoroutine ")
	if i < 0 {
		return s
	}
	return strings.TrimRight(s[:i], "\n") + "\n(run with --verbose to see the stack trace)"
}

// text renders a diagnostic: "error: WHERE: Summary (path)" and the
// detail indented below.
func (d Diagnostic) text(p painter) string {
	label, c := "error", colourRed
	switch d.Severity {
	case engine.SeverityWarning:
		label, c = "warning", colourYellow
	case engine.SeverityInfo:
		label, c = "info", colourBlue
	}
	var b strings.Builder
	b.WriteString(p.paint(c, label+":"))
	b.WriteString(" ")
	if d.Where != "" {
		b.WriteString(d.Where + ": ")
	}
	b.WriteString(p.paint(colourBold, d.Summary))
	if d.Path != "" {
		b.WriteString(" (" + d.Path + ")")
	}
	if d.Detail != "" {
		b.WriteString("\n    " + strings.ReplaceAll(strings.TrimRight(d.Detail, "\n"), "\n", "\n    "))
	}
	return b.String()
}

// PrintError writes err as diagnostics to w, for commands that show no
// operation view.
func PrintError(w io.Writer, err error, colour, verbose bool) {
	for _, d := range Diagnose(err, verbose) {
		fmt.Fprintln(w, d.text(painter{on: colour}))
	}
}

// Format renders the diagnostic as text, coloured or not.
func (d Diagnostic) Format(colour bool) string { return d.text(painter{on: colour}) }
