package engine

import (
	"fmt"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The journal brackets: every provider call that can change the world is
// bracketed by begin and end (or abort, or nothing when its outcome is
// unknown), but for a pure step's, which is written once it returned (see
// bracket); changes without a provider call are written at once. Where the
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

// bracket is one provider call's journaling: a begin entry before the call
// and an end or fail entry after it; or, for a pure step (see pureStep),
// nothing before and one write entry after, since its outcome cannot be
// unknown: until that entry is durable the step has not happened.
type bracket struct {
	step uint64
	pure bool
}

// open starts the journaling of a call: it writes the begin entry of a
// step that is not pure, and nothing for one that is.
func (x *executor) open(pure bool, op state.Op, old, nu *state.Resource) (bracket, error) {
	if pure {
		return bracket{pure: true}, nil
	}
	step, err := x.begin(op, old, nu)
	return bracket{step: step}, err
}

// close records a call that returned successfully (or partially): the end
// entry, or a pure step's only entry. The step is done once it returns.
func (x *executor) close(b bracket, op state.Op, old, nu *state.Resource) error {
	if b.pure {
		return x.write(op, old, nu)
	}
	return x.end(b.step, op, old, nu)
}

// failed records a call that returned an error (see failedCall); a pure
// step failed records nothing, as it changed nothing.
func (x *executor) failed(b bracket, op state.Op, old, nu *state.Resource, err error) error {
	if b.pure {
		return callError(op, resource.URN(urnOf(old, nu)), err)
	}
	return x.failedCall(b.step, op, old, nu, err)
}

// yieldSlot gives the step's slot back, if it holds one (see runIn), just
// before its last entry is written: what is left to it is to wait until
// the entry is durable and to report, and that wait would otherwise keep
// a step that could call its provider from starting. Only a step that
// calls no provider, hook or provisioner after the entry may yield. It
// is reported done, and its dependents start, once the entry is durable
// as before: yielding changes when the next step starts, nothing else.
func (x *executor) yieldSlot() {
	if x.fx.waits() {
		x.slot.release()
	}
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
