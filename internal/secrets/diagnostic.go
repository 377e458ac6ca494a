package secrets

// sentinel is an error value of this package with a summary for people
// (internal/display's Diagnostic interface); compare with errors.Is.
type sentinel struct{ msg, summary string }

func (e *sentinel) Error() string { return e.msg }

// Diagnostic gives the summary; the detail is the message as wrapped, which
// names the stack and what was being opened.
func (e *sentinel) Diagnostic() (summary, where, path, detail string) {
	return e.summary, "", "", ""
}
