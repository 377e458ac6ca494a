package engine

import (
	"fmt"

	"github.com/plinth-iac/plinth/internal/state"
)

// The journal brackets: every provider call that can change the world is
// bracketed by begin and end (or abort, or nothing when its outcome is
// unknown); changes without a provider call are written at once. Where the
// entries go, and which changes reach the records, is the effects' choice.

func (x *executor) begin(op state.Op, old, nu *state.Resource) (uint64, error) {
	step := x.steps.Add(1)
	e := state.Entry{Step: step, Kind: state.Begin, Op: op, Old: old, New: nu}
	if err := x.fx.record(e); err != nil {
		return 0, fmt.Errorf("recording the start of a %s of %s: %w", op, urnOf(old, nu), err)
	}
	return step, nil
}

func (x *executor) end(step uint64, op state.Op, old, nu *state.Resource) error {
	sealSecrets(nu)
	e := state.Entry{Step: step, Kind: state.End, Op: op, Old: old, New: nu}
	if err := x.fx.record(e); err != nil {
		return fmt.Errorf("the %s of %s happened but could not be recorded (it will be reported as pending): %w", op, urnOf(old, nu), err)
	}
	return nil
}

func (x *executor) abort(step uint64, op state.Op, old, nu *state.Resource) error {
	e := state.Entry{Step: step, Kind: state.Fail, Op: op, Old: old, New: nu}
	if err := x.fx.record(e); err != nil {
		return fmt.Errorf("recording the failure of a %s of %s: %w", op, urnOf(old, nu), err)
	}
	return nil
}

func (x *executor) write(op state.Op, old, nu *state.Resource) error {
	sealSecrets(nu)
	if err := x.writeEntry(state.Entry{Kind: state.Write, Op: op, Old: old, New: nu}); err != nil {
		return fmt.Errorf("recording a %s of %s: %w", op, urnOf(old, nu), err)
	}
	return nil
}

// writeEntry records a change that needs no provider call.
func (x *executor) writeEntry(e state.Entry) error {
	e.Step = x.steps.Add(1)
	return x.fx.record(e)
}

func urnOf(old, nu *state.Resource) string {
	if nu != nil {
		return string(nu.URN)
	}
	if old != nil {
		return string(old.URN)
	}
	return "a resource"
}
