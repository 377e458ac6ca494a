package provider

import (
	"context"
	"errors"
)

// ErrOutcomeUnknown marks a failed call whose effect on the world cannot be
// known: the provider process crashed or was killed, the connection broke,
// the call ran out of time or was cancelled, or the answer could not be
// read. Only an error that a live provider gave as its answer means the
// call changed nothing; the engine leaves any other failure of a Create,
// Update or Delete pending, exactly as it does when plinth itself is killed.
var ErrOutcomeUnknown = errors.New("the provider did not say whether the call took effect")

// OutcomeUnknown wraps err so that errors.Is(err, ErrOutcomeUnknown) holds;
// nil stays nil.
func OutcomeUnknown(err error) error {
	if err == nil || errors.Is(err, ErrOutcomeUnknown) {
		return err
	}
	return &unknownOutcome{err}
}

type unknownOutcome struct{ err error }

func (e *unknownOutcome) Error() string { return e.err.Error() }

func (e *unknownOutcome) Unwrap() []error { return []error{e.err, ErrOutcomeUnknown} }

// IsOutcomeUnknown reports whether a failed call may have taken effect: it
// was marked unknown by an adapter, or it ended by a deadline or a
// cancellation, whose effect no caller can know.
func IsOutcomeUnknown(err error) bool {
	return errors.Is(err, ErrOutcomeUnknown) ||
		errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, context.Canceled)
}
