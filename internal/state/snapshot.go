package state

import (
	"encoding/json"
	"time"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Snapshot is the recorded state of a stack at one moment.
type Snapshot struct {
	// Resources in dependency order: everything a resource refers to comes
	// before it.
	Resources []*Resource
	// Outputs are the stack's outputs.
	Outputs resource.Object
	// OutputTypes are the types the program gave its outputs, by name, as
	// JSON in the program's own type system, for a program whose values
	// have types a resource.Value does not keep: the Terraform front end
	// records each root output's type as a Terraform state writes it
	// (["list","string"] where the value alone would read as a tuple).
	// Nil for other programs and for states recorded before it; an output
	// without a type has its type inferred from its value.
	OutputTypes map[string]json.RawMessage
	// Pending lists operations that began and never reported an end: their
	// effect on the world is uncertain until a person resolves them.
	Pending []PendingOperation
}

// PendingOperation is a step that began and did not finish.
type PendingOperation struct {
	Op Op
	// Resource is what the step acted on: for a create, the resource it meant
	// to create (no ID); for an update or delete, the recorded resource.
	Resource *Resource
	Started  time.Time
}

// Describe says what may have happened, and how to resolve it, in a
// sentence for people.
func (p PendingOperation) Describe() string {
	urn := string(p.Resource.URN)
	switch p.Op {
	case OpCreate, OpReplace:
		return "a create of " + urn + " may have happened; run `plinth state pending` to import its ID or clear it"
	case OpUpdate:
		return "an update of " + urn + " may have happened; run `plinth refresh` to read its current state"
	case OpDelete:
		return "a delete of " + urn + " may have happened; run `plinth refresh` to find out whether it still exists"
	}
	return "a " + string(p.Op) + " of " + urn + " was interrupted"
}

// Blocks reports whether the operation must be resolved before an update or
// destroy may run: an unrecorded create could otherwise be done twice.
func (p PendingOperation) Blocks() bool {
	return p.Op == OpCreate || p.Op == OpReplace
}

// Find returns the live (not pending-deletion) resource with the URN, or nil.
func (s *Snapshot) Find(urn resource.URN) *Resource {
	for _, r := range s.Resources {
		if r.URN == urn && !r.Delete {
			return r
		}
	}
	return nil
}
