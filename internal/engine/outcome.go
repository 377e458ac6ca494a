package engine

import (
	"fmt"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// OutcomeUnknownError reports a Create, Update or Delete that failed in a
// way that does not say whether it took effect: the provider crashed or was
// killed, the connection broke, the call timed out or was cancelled, or the
// answer could not be read. The step is left pending in the journal (its
// begin entry has no end), exactly as when plinth itself is killed, so
// nothing is assumed: the next run reports it, and a pending create blocks
// updates until a person resolves it.
type OutcomeUnknownError struct {
	Op  state.Op
	URN resource.URN
	Err error
}

func (e *OutcomeUnknownError) Error() string {
	var verb, next string
	switch e.Op {
	case state.OpCreate, state.OpReplace:
		verb = "creating"
		next = "the resource may exist. Run `plinth state pending` to import its ID if it was made, or to clear the create if it was not"
	case state.OpUpdate:
		verb = "updating"
		next = "the resource may have changed. Run `plinth refresh` to read its current state (`plinth state pending` lists it)"
	default:
		verb = "deleting"
		next = "the resource may be gone. Run `plinth refresh` to find out whether it still exists (`plinth state pending` lists it)"
	}
	return fmt.Sprintf("%s %s: %v; the outcome is unknown, so the %s is left pending: %s", verb, e.URN, e.Err, opName(e.Op), next)
}

// Unwrap returns the provider's error.
func (e *OutcomeUnknownError) Unwrap() error { return e.Err }

func opName(op state.Op) string {
	if op == state.OpReplace {
		return "create"
	}
	return string(op)
}

// failedCall settles the journal after a provider call of a step failed
// with err (partial creates and updates are handled by the caller). A clear
// error from a live provider means the world is unchanged, and the step is
// closed as failed; any error whose outcome is unknown leaves the step open
// as a pending operation. It returns the error to report.
func (x *executor) failedCall(step uint64, op state.Op, old, nu *state.Resource, err error) error {
	urn := resource.URN(urnOf(old, nu))
	if provider.IsOutcomeUnknown(err) {
		return &OutcomeUnknownError{Op: op, URN: urn, Err: err}
	}
	if aerr := x.abort(step, op, old, nu); aerr != nil {
		return aerr
	}
	return callError(op, urn, err)
}

// callError is the error of a failed provider call of op on urn.
func callError(op state.Op, urn resource.URN, err error) error {
	switch op {
	case state.OpUpdate:
		return fmt.Errorf("updating %s: %w", urn, err)
	case state.OpDelete:
		return fmt.Errorf("deleting %s: %w", urn, err)
	}
	return fmt.Errorf("creating %s: %w", urn, err)
}
