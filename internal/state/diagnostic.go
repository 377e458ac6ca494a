package state

// How the state package's errors read to a person: each implements
// Diagnostic, the interface internal/display declares (a short fixed
// summary, where, a property path, and a detail; "" to show the error's
// message with the context callers added).

// summarised is an error value of this package with a summary for people;
// compare with errors.Is.
type summarised struct{ msg, summary string }

func (e *summarised) Error() string { return e.msg }

// Diagnostic gives the summary; the detail is the message as wrapped.
func (e *summarised) Diagnostic() (summary, where, path, detail string) {
	return e.summary, "", "", ""
}

// Diagnostic implements the display's interface.
func (e *LockedError) Diagnostic() (summary, where, path, detail string) {
	return "Stack is locked", "", "", e.Error()
}

// Diagnostic implements the display's interface.
func (e *DamagedError) Diagnostic() (summary, where, path, detail string) {
	return "Damaged state", e.Where, "", e.Error()
}

// Diagnostic implements the display's interface.
func (e *MissingSnapshotError) Diagnostic() (summary, where, path, detail string) {
	return "Missing state", e.Where, "", e.Error()
}

// Diagnostic implements the display's interface.
func (e *RollbackError) Diagnostic() (summary, where, path, detail string) {
	return "State rolled back", e.Where, "", e.Error()
}
