package cli

import (
	"fmt"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// blockingPending returns the pending operations of base that an update
// or destroy refuses to run over: creates an interrupted run may have
// made without recording them.
func blockingPending(base *state.Snapshot) []state.PendingOperation {
	if base == nil {
		return nil
	}
	var out []state.PendingOperation
	for _, p := range base.Pending {
		if p.Blocks() {
			out = append(out, p)
		}
	}
	return out
}

// refusePending fails an update or destroy over pending creates before
// its preview and confirmation, with the engine's own error (which the
// operation would fail with after them).
func refusePending(base *state.Snapshot) error {
	if pending := blockingPending(base); len(pending) > 0 {
		return &engine.PendingError{Pending: pending}
	}
	return nil
}

// warnPending tells a preview's reader what `up` would refuse over: the
// pending creates, with the engine's wording and the commands that
// resolve them. Interrupted updates and deletes, which `up` only warns
// about, are warned about in its words.
func warnPending(view display.View, base *state.Snapshot) {
	if base == nil {
		return
	}
	for _, p := range base.Pending {
		if !p.Blocks() {
			view.Diagnostic(display.Diagnostic{Severity: engine.SeverityWarning, Summary: p.Describe()})
		}
	}
	pending := blockingPending(base)
	if len(pending) == 0 {
		return
	}
	detail := (&engine.PendingError{Pending: pending}).Error() +
		"\n`plinth up` refuses to run until they are resolved; this preview plans as if they had not happened. Check each resource, then:"
	for _, p := range pending {
		detail += fmt.Sprintf("\n  plinth state pending --import %s ID   (it was made, with that ID)\n  plinth state pending --clear %s   (it was not)", p.Resource.URN, p.Resource.URN)
	}
	view.Diagnostic(display.Diagnostic{Severity: engine.SeverityWarning, Summary: "Pending operations", Detail: detail})
}

// notePending passes a preview's events on, following the step of each
// resource whose create is pending with a warning, so that the plan shows
// which of its creates may already have happened.
func notePending(base *state.Snapshot, events func(engine.Event)) func(engine.Event) {
	pending := map[resource.URN]bool{}
	for _, p := range blockingPending(base) {
		pending[p.Resource.URN] = true
	}
	if len(pending) == 0 {
		return events
	}
	return func(e engine.Event) {
		events(e)
		if e.Kind == engine.EventStepDone && e.Preview && pending[e.URN] {
			events(engine.Event{Kind: engine.EventDiagnostic, Severity: engine.SeverityWarning, URN: e.URN, Preview: true,
				Message: "its create by an interrupted run is pending and may have happened: see Pending operations below"})
		}
	}
}
