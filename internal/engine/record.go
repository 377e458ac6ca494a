package engine

import (
	"fmt"

	"github.com/plinth-iac/plinth/internal/state"
)

// The journal helpers: every provider call that can change the world is
// bracketed by begin and end (or abort); changes without a provider call
// are written at once. In a preview they do nothing. Each finished change
// is mirrored into the deployment's view of the current state.

func (d *deployment) begin(op state.Op, old, nu *state.Resource) (uint64, error) {
	step := d.steps.Add(1)
	if d.preview {
		return step, nil
	}
	e := &state.Entry{Step: step, Kind: state.Begin, Op: op, Old: old, New: nu, Time: d.opts.now()}
	if err := d.opts.Journal.Record(d.callCtx, e); err != nil {
		return 0, fmt.Errorf("recording the start of a %s of %s: %w", op, urnOf(old, nu), err)
	}
	return step, nil
}

func (d *deployment) end(step uint64, op state.Op, old, nu *state.Resource) error {
	if d.preview {
		return nil
	}
	e := &state.Entry{Step: step, Kind: state.End, Op: op, Old: old, New: nu, Time: d.opts.now()}
	if err := d.opts.Journal.Record(d.callCtx, e); err != nil {
		return fmt.Errorf("the %s of %s happened but could not be recorded (it will be reported as pending): %w", op, urnOf(old, nu), err)
	}
	d.mirror(op, old, nu)
	return nil
}

func (d *deployment) abort(step uint64, op state.Op, old, nu *state.Resource) error {
	if d.preview {
		return nil
	}
	e := &state.Entry{Step: step, Kind: state.Fail, Op: op, Old: old, New: nu, Time: d.opts.now()}
	if err := d.opts.Journal.Record(d.callCtx, e); err != nil {
		return fmt.Errorf("recording the failure of a %s of %s: %w", op, urnOf(old, nu), err)
	}
	return nil
}

func (d *deployment) write(op state.Op, old, nu *state.Resource) error {
	if d.preview {
		return nil
	}
	e := &state.Entry{Step: d.steps.Add(1), Kind: state.Write, Op: op, Old: old, New: nu, Time: d.opts.now()}
	if err := d.opts.Journal.Record(d.callCtx, e); err != nil {
		return fmt.Errorf("recording a %s of %s: %w", op, urnOf(old, nu), err)
	}
	d.mirror(op, old, nu)
	return nil
}

// mirror applies a recorded change to the deployment's current state, by
// the same rules as state.Live.
func (d *deployment) mirror(op state.Op, old, nu *state.Resource) {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch op {
	case state.OpCreate, state.OpImport:
		d.cur[nu.URN] = nu
	case state.OpReplace:
		condemned := old.Clone()
		condemned.Delete = true
		d.drop(old)
		d.deletes[condemned.Key()] = condemned
		d.cur[nu.URN] = nu
	case state.OpUpdate, state.OpSame, state.OpRead:
		d.drop(old)
		if nu != nil {
			d.put(nu)
		}
	case state.OpDelete, state.OpRemove:
		d.drop(old)
	}
}

func (d *deployment) drop(r *state.Resource) {
	if r.Delete {
		delete(d.deletes, r.Key())
	} else if d.cur[r.URN] == r || d.cur[r.URN] != nil && d.cur[r.URN].ID == r.ID {
		delete(d.cur, r.URN)
	}
}

func (d *deployment) put(r *state.Resource) {
	if r.Delete {
		d.deletes[r.Key()] = r
	} else {
		d.cur[r.URN] = r
	}
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
