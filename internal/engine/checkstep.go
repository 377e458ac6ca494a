package engine

import (
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// PlannedStep describes a step that changes a custom resource, in the
// world or in the state, for Options.CheckStep: a preview's steps can be
// recorded as a plan, and an update's checked against it.
type PlannedStep struct {
	URN  resource.URN
	Type string
	// Op is the step as it is shown; deletes and drops from the state
	// have their own ops (OpRemove for a missing record, OpRename for an
	// alias taking a record over).
	Op StepOp
	// ID is the recorded resource's ID (for a rename, its old URN); "" for
	// a plain create.
	ID string
	// Inputs are the checked inputs a create, update or import sends to
	// the provider; a preview may hold unknowns where the update will
	// know the value. Nil for the other steps.
	Inputs resource.Object
}

// The ops a PlannedStep has beside the shown ones.
const (
	OpRemove StepOp = "remove"
	OpRename StepOp = "rename"
)

// check asks Options.CheckStep about s before it starts. A refused step
// is reported done with the error, having recorded nothing.
func (x *executor) check(s step) error {
	if x.opts.CheckStep == nil {
		return nil
	}
	p, ok := plannedStep(s)
	if !ok {
		return nil
	}
	err := x.opts.CheckStep(p)
	if err != nil {
		r := &state.Resource{URN: p.URN, Type: p.Type}
		x.done(p.Op, nil, r, nil, x.started(p.Op, nil, r, nil), err)
	}
	return err
}

// plannedStep describes s, if it is a step a plan holds: not a same,
// keep, refuse, component, provider or read step, nor a delete-first
// replacement, whose deletes and create are steps of their own.
func plannedStep(s step) (PlannedStep, bool) {
	switch s := s.(type) {
	case createStep:
		p := PlannedStep{URN: s.c.urn, Type: s.c.reg.Type, Op: s.h.shown, Inputs: s.c.inputs}
		if old := s.replaced(); old != nil {
			p.ID = old.ID
		}
		return p, true
	case updateStep:
		return PlannedStep{URN: s.c.urn, Type: s.c.reg.Type, Op: OpUpdate, ID: s.c.old.ID, Inputs: s.c.inputs}, true
	case importStep:
		return PlannedStep{URN: s.c.urn, Type: s.c.reg.Type, Op: OpImport, ID: s.c.reg.ImportID, Inputs: s.c.inputs}, true
	case deleteStep:
		return recorded(s.r, s.shown), true
	case dropStep:
		return recorded(s.r, s.shown), true
	case discardStep:
		return recorded(s.r, OpDiscard), true
	case removeStep:
		return recorded(s.r, OpRemove), true
	case renameStep:
		return PlannedStep{URN: s.urn, Type: s.old.Type, Op: OpRename, ID: string(s.old.URN)}, true
	}
	return PlannedStep{}, false
}

func recorded(r *state.Resource, op StepOp) PlannedStep {
	return PlannedStep{URN: r.URN, Type: r.Type, Op: op, ID: r.ID}
}
