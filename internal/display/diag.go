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
	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
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
}

// Error is an error that already reads as a diagnostic. Commands return
// it for mistakes they find themselves.
type Error struct {
	Summary string
	Where   string
	Detail  string
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

// Diagnose turns an error into diagnostics: one per program problem or
// failed step, each with a summary that says what kind of problem it is.
// Go stack traces (from a provider that panicked) are cut unless verbose.
func Diagnose(err error, verbose bool) []Diagnostic {
	if err == nil {
		return nil
	}
	var ds program.Diagnostics
	if errors.As(err, &ds) {
		return fromProgram(ds)
	}
	var oe *engine.OperationError
	if errors.As(err, &oe) {
		var out []Diagnostic
		for _, e := range oe.Errs {
			for _, d := range Diagnose(e, verbose) {
				if d.Summary == genericSummary {
					d.Summary, d.Where = "Resource failed", urnIn(d.Detail)
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

func fromProgram(ds program.Diagnostics) []Diagnostic {
	var out []Diagnostic
	for _, d := range ds.Errors() {
		out = append(out, Diagnostic{Severity: engine.SeverityError, Summary: d.Summary, Where: position(d), Path: d.Path, Detail: d.Detail})
	}
	return out
}

// FromProgram converts one program diagnostic (such as a warning).
func FromProgram(d program.Diagnostic) Diagnostic {
	sev := engine.SeverityError
	if d.Severity == program.Warning {
		sev = engine.SeverityWarning
	}
	return Diagnostic{Severity: sev, Summary: d.Summary, Where: position(d), Path: d.Path, Detail: d.Detail}
}

func position(d program.Diagnostic) string {
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

// diagnoseOne names the kind of a single error.
func diagnoseOne(err error) Diagnostic {
	var (
		de *Error
		pd program.Diagnostic
		ce *engine.CheckError
		pe *engine.ProtectedError
		pn *engine.PendingError
		im *engine.ImportMismatchError
		le *state.LockedError
		dm *state.DamagedError
		nf *plugin.NotFoundError
	)
	switch {
	case errors.As(err, &de):
		return Diagnostic{Summary: de.Summary, Where: de.Where, Detail: de.Detail}
	case errors.As(err, &pd):
		return FromProgram(pd)
	case errors.As(err, &ce):
		return checkDiagnostic(ce)
	case errors.As(err, &pe):
		return Diagnostic{Summary: "Protected resource", Where: string(pe.URN), Detail: pe.Error()}
	case errors.As(err, &pn):
		return Diagnostic{Summary: "Pending operations", Detail: pn.Error()}
	case errors.As(err, &im):
		return Diagnostic{Summary: "Import does not match", Where: string(im.URN), Detail: im.Error()}
	case errors.As(err, &le):
		return Diagnostic{Summary: "Stack is locked", Detail: le.Error()}
	case errors.As(err, &dm):
		return Diagnostic{Summary: "Damaged state", Where: dm.Where, Detail: dm.Error()}
	case errors.Is(err, secrets.ErrWrongPassphrase):
		return Diagnostic{Summary: "Wrong passphrase", Detail: err.Error()}
	case errors.Is(err, state.ErrCannotDecrypt):
		return Diagnostic{Summary: "Cannot decrypt secrets", Detail: err.Error()}
	case errors.As(err, &nf):
		return Diagnostic{Summary: "Provider plugin not found", Detail: err.Error()}
	case errors.Is(err, context.Canceled):
		return Diagnostic{Summary: "Cancelled", Detail: err.Error()}
	}
	return fallback(err)
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

// urnIn returns the first URN a message names, "" if none.
func urnIn(msg string) string {
	i := strings.Index(msg, "urn:pulumi:")
	if i < 0 {
		return ""
	}
	end := strings.IndexAny(msg[i:], " \n\t,;")
	if end < 0 {
		return strings.TrimRight(msg[i:], ".:")
	}
	return strings.TrimRight(msg[i:i+end], ".:")
}

func checkDiagnostic(ce *engine.CheckError) Diagnostic {
	what := "inputs"
	if ce.Config {
		what = "provider configuration"
	}
	lines := make([]string, len(ce.Failures))
	for i, f := range ce.Failures {
		lines[i] = "  " + f.String()
	}
	detail := fmt.Sprintf("The provider rejected the %s of %s:\n%s\nFix these properties in the program.", what, ce.URN, strings.Join(lines, "\n"))
	return Diagnostic{Summary: "Invalid " + what, Where: string(ce.URN), Detail: detail}
}

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
