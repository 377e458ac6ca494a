package engine

import (
	"time"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// StepOp names what a step does to a resource, as shown to people.
type StepOp string

// The step operations. A replacement is counted once as OpReplace; its
// parts are reported as OpCreateReplacement and OpDeleteReplaced steps.
const (
	OpSame              StepOp = "same"
	OpCreate            StepOp = "create"
	OpUpdate            StepOp = "update"
	OpDelete            StepOp = "delete"
	OpReplace           StepOp = "replace"
	OpCreateReplacement StepOp = "create-replacement"
	OpDeleteReplaced    StepOp = "delete-replaced"
	OpRefresh           StepOp = "refresh"
	OpImport            StepOp = "import"
	OpDiscard           StepOp = "discard"
	// OpRead reads a resource plinth does not manage (Registration.ReadID).
	OpRead StepOp = "read"
)

// ReplaceReason says why a replacement was forced.
type ReplaceReason string

// The reasons a replacement is forced.
const (
	// ReplaceTainted: the state marks the resource tainted.
	ReplaceTainted ReplaceReason = "tainted"
	// ReplaceRequested: the operation's Replace option names it.
	ReplaceRequested ReplaceReason = "requested"
	// ReplaceTriggered: the program set ForceReplace on its registration.
	ReplaceTriggered ReplaceReason = "triggered"
)

// EventKind says what an event reports.
type EventKind uint8

// Event kinds.
const (
	// EventStepStart: a step is about to call its provider.
	EventStepStart EventKind = iota + 1
	// EventStepDone: a step finished; Err is set if it failed.
	EventStepDone
	// EventDiagnostic: a message for the user, not tied to a step's end.
	EventDiagnostic
	// EventProvisionerOutput: one line of a provisioner's output (Message)
	// for the resource URN.
	EventProvisionerOutput
)

// Severity ranks a diagnostic.
type Severity uint8

// Severities.
const (
	SeverityInfo Severity = iota
	SeverityWarning
	SeverityError
)

func (s Severity) String() string {
	return [...]string{"info", "warning", "error"}[s]
}

// Event reports progress. Old and New are the resource before and after
// the step (either may be nil); during a preview New holds the planned
// values, which may be unknown.
type Event struct {
	Kind    EventKind
	Op      StepOp
	URN     resource.URN
	Type    string
	Preview bool
	Old     *state.Resource
	New     *state.Resource
	// Diff is the detailed diff that decided an update or replace, and, for
	// a refresh, the drift found.
	Diff        resource.DetailedDiff
	ReplaceKeys []string
	// ReplaceReason says why a replacement was forced when its inputs did
	// not ask for it (or as well as): ReplaceTainted, ReplaceRequested or
	// ReplaceTriggered; empty otherwise.
	ReplaceReason ReplaceReason
	// DeleteFirst says a replacement deletes the old resource before it
	// creates the new one (the provider or the resource's options asked).
	DeleteFirst bool
	Duration    time.Duration
	Err         error
	Severity    Severity
	Message     string
}

// Result summarises an operation.
type Result struct {
	// Counts holds the number of resources per operation, same included.
	Counts map[StepOp]int
	// Retained is how many of Counts' discards removed a retainOnDelete
	// resource the program no longer declares from the state alone:
	// plinth calls that a discard, pulumi a delete.
	Retained int
	Outputs  resource.Object
	Duration time.Duration
}

// HasChanges reports whether the operation changed (or, in a preview,
// would change) anything.
func (r *Result) HasChanges() bool {
	for op, n := range r.Counts {
		if op != OpSame && n > 0 {
			return true
		}
	}
	return false
}
