package engine

import (
	"fmt"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// How the engine's errors read to a person. Each error type a user can see
// implements Diagnostic, the interface internal/display declares: a short
// fixed summary, where it applies (a URN), a property path, and a detail in
// full sentences ("" to show the error's message with the context callers
// added). The display knows none of these types.

// StepError is the failure of one resource's step: the URN of the resource
// and what went wrong. Its message is the cause's, unchanged; it carries
// the URN so that the display need not look for one in the text.
type StepError struct {
	URN resource.URN
	Err error
}

func (e *StepError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *StepError) Unwrap() error { return e.Err }

// Diagnostic gives only where the step failed: the summary is the cause's
// if it has one, else the operation's ("Resource failed").
func (e *StepError) Diagnostic() (summary, where, path, detail string) {
	return "", string(e.URN), "", ""
}

// stepError ties err, if any, to the resource whose step failed.
func stepError(urn resource.URN, err error) error {
	if err == nil || urn == "" {
		return err
	}
	return &StepError{URN: urn, Err: err}
}

// Diagnostic names the summary given to a failed step whose cause has no
// summary of its own; the display shows each step error on its own.
func (e *OperationError) Diagnostic() (summary, where, path, detail string) {
	return "Resource failed", "", "", ""
}

// Diagnostic lists the rejected properties and says to fix them.
func (e *CheckError) Diagnostic() (summary, where, path, detail string) {
	what := "inputs"
	if e.Config {
		what = "provider configuration"
	}
	lines := make([]string, len(e.Failures))
	for i, f := range e.Failures {
		lines[i] = "  " + f.String()
	}
	detail = fmt.Sprintf("The provider rejected the %s of %s:\n%s\nFix these properties in the program.", what, e.URN, strings.Join(lines, "\n"))
	return "Invalid " + what, string(e.URN), "", detail
}

// Diagnostic implements the display's interface.
func (e *ProtectedError) Diagnostic() (summary, where, path, detail string) {
	return "Protected resource", string(e.URN), "", e.Error()
}

// Diagnostic implements the display's interface.
func (e *PendingError) Diagnostic() (summary, where, path, detail string) {
	return "Pending operations", "", "", e.Error()
}

// Diagnostic implements the display's interface.
func (e *ImportMismatchError) Diagnostic() (summary, where, path, detail string) {
	return "Import does not match", string(e.URN), "", e.Error()
}

// Diagnostic implements the display's interface.
func (e *UnmatchedTargetError) Diagnostic() (summary, where, path, detail string) {
	return "Target matches no resource", "", "", e.Error()
}
