package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
)

// how names the journal operation of a create, how it is shown and how it
// is counted.
type how struct {
	op      state.Op
	shown   StepOp
	counted StepOp
}

var (
	plainCreate       = how{state.OpCreate, OpCreate, OpCreate}
	replacementCreate = how{state.OpCreate, OpCreateReplacement, OpReplace}
	createBeforeDel   = how{state.OpReplace, OpCreateReplacement, OpReplace}
	// recreate creates a resource that a refresh found missing: journaled
	// as a replacement of its Missing record, which is then dropped.
	recreate = how{state.OpReplace, OpCreate, OpCreate}
)

// create creates a resource from checked inputs. With createBeforeDel the
// old resource stays, marked for deletion at the end of the operation.
func (d *deployment) create(c *change, h how) (Registered, error) {
	if h == plainCreate && d.takeDBRDeleted(c.urn) {
		h = replacementCreate
	}
	nr := d.newResource(c.urn, c.reg, c.inputs, c.inst.ref)
	var old *state.Resource
	switch {
	case h == recreate:
		old = c.gone
	case h.op == state.OpReplace:
		old = c.old
	}
	start := d.started(h.shown, c.old, nr, c)
	step, err := d.begin(h.op, old, nr)
	if err != nil {
		return Registered{}, err
	}
	var resp provider.CreateResponse
	err = d.call(c.reg.CustomTimeouts.Create, func(ctx context.Context) (err error) {
		resp, err = c.inst.p.Create(ctx, provider.CreateRequest{URN: c.urn, Inputs: c.inputs, Timeout: c.reg.CustomTimeouts.Create, Preview: d.preview})
		return err
	})
	if err != nil {
		return Registered{}, d.createFailed(step, h, old, nr, err, start)
	}
	if resp.ID == "" && !d.preview {
		err := fmt.Errorf("creating %s: the provider reported success but returned no ID, so plinth cannot track what it made; the create is left pending", c.urn)
		d.done(h.shown, c.old, nr, c, start, err)
		return Registered{}, err
	}
	nr.ID, nr.Outputs, nr.Private = resp.ID, resp.Outputs, resp.Private
	markSecretID(nr, c.inputs, false)
	if d.preview {
		nr.ID = UnknownID
		if nr.Outputs == nil {
			nr.Outputs = c.inputs
		}
	}
	if err := d.end(step, h.op, old, nr); err != nil {
		return Registered{}, err
	}
	d.count(h.counted)
	d.done(h.shown, c.old, nr, c, start, nil)
	return registered(nr), nil
}

// createFailed records a failed create: a partial create (the resource
// exists but did not initialise) is recorded with its ID; a clear error
// from the provider means nothing was made; any other error leaves the
// create pending (see failedCall).
func (d *deployment) createFailed(step uint64, h how, old, nr *state.Resource, err error, start time.Time) error {
	var ie *provider.InitError
	if errors.As(err, &ie) && ie.ID != "" {
		nr.ID, nr.Outputs, nr.Private, nr.InitErrors = ie.ID, ie.Outputs, ie.Private, ie.Reasons
		markSecretID(nr, nr.Inputs, false)
		if rerr := d.end(step, h.op, old, nr); rerr != nil {
			return rerr
		}
		d.count(h.counted)
		err = fmt.Errorf("creating %s: %w", nr.URN, err)
	} else {
		err = d.failedCall(step, h.op, old, nr, err)
	}
	d.done(h.shown, old, nr, nil, start, err)
	return err
}

// update updates a resource in place.
func (d *deployment) update(c *change) (Registered, error) {
	nr := d.newResource(c.urn, c.reg, c.inputs, c.inst.ref)
	nr.ID, nr.Created, nr.Private = c.old.ID, c.old.Created, c.old.Private
	nr.SecretID = c.old.SecretID || idFromSecret(nr.ID, c.inputs)
	start := d.started(OpUpdate, c.old, nr, c)
	step, err := d.begin(state.OpUpdate, c.old, nr)
	if err != nil {
		return Registered{}, err
	}
	ignore, _ := parsePaths("ignoreChanges", c.reg.IgnoreChanges)
	var resp provider.UpdateResponse
	err = d.call(c.reg.CustomTimeouts.Update, func(ctx context.Context) (err error) {
		resp, err = c.inst.p.Update(ctx, provider.UpdateRequest{
			URN: c.urn, ID: c.old.ID, OldInputs: c.old.Inputs, OldOutputs: c.old.Outputs, News: c.inputs,
			Timeout: c.reg.CustomTimeouts.Update, IgnoreChanges: ignore, Preview: d.preview, Private: c.old.Private,
		})
		return err
	})
	if err != nil {
		return Registered{}, d.updateFailed(step, c, nr, err, start)
	}
	nr.Outputs, nr.Private = resp.Outputs, resp.Private
	markSecretID(nr, c.inputs, nr.SecretID)
	if err := d.end(step, state.OpUpdate, c.old, nr); err != nil {
		return Registered{}, err
	}
	d.count(OpUpdate)
	d.done(OpUpdate, c.old, nr, c, start, nil)
	return registered(nr), nil
}

// updateFailed records a failed update: a partial update is recorded; a
// clear error leaves the resource as it was; any other error leaves the
// update pending (see failedCall).
func (d *deployment) updateFailed(step uint64, c *change, nr *state.Resource, err error, start time.Time) error {
	var ie *provider.InitError
	if errors.As(err, &ie) {
		nr.Outputs, nr.Private, nr.InitErrors = ie.Outputs, ie.Private, ie.Reasons
		if rerr := d.end(step, state.OpUpdate, c.old, nr); rerr != nil {
			return rerr
		}
		err = fmt.Errorf("updating %s: %w", c.urn, err)
	} else {
		err = d.failedCall(step, state.OpUpdate, c.old, nr, err)
	}
	d.done(OpUpdate, c.old, nr, c, start, err)
	return err
}

// same records a resource that needs no provider call, writing its record
// only if something (dependencies, options, provider) changed.
func (d *deployment) same(c *change) (Registered, error) {
	nr := d.newResource(c.urn, c.reg, c.inputs, c.inst.ref)
	nr.ID, nr.Outputs, nr.Private = c.old.ID, c.old.Outputs, c.old.Private
	markSecretID(nr, c.inputs, c.old.SecretID)
	nr.Created, nr.Modified = c.old.Created, c.old.Modified
	if !sameRecord(c.old, nr) {
		nr.Modified = d.opts.now()
		if err := d.write(state.OpSame, c.old, nr); err != nil {
			return Registered{}, err
		}
	}
	d.count(OpSame)
	d.done(OpSame, c.old, nr, c, time.Now(), nil)
	return registered(nr), nil
}

// started reports a step's start and returns the time it started.
func (d *deployment) started(op StepOp, old, nu *state.Resource, c *change) time.Time {
	r := nu
	if r == nil {
		r = old
	}
	e := Event{Kind: EventStepStart, Op: op, URN: r.URN, Type: r.Type, Old: old, New: nu}
	if c != nil {
		e.Diff, e.ReplaceKeys = c.diff, c.replace
	}
	d.emit(e)
	return time.Now()
}

// done reports a step's end.
func (d *deployment) done(op StepOp, old, nu *state.Resource, c *change, start time.Time, err error) {
	r := nu
	if r == nil {
		r = old
	}
	e := Event{Kind: EventStepDone, Op: op, URN: r.URN, Type: r.Type, Old: old, New: nu, Duration: time.Since(start), Err: err}
	if c != nil {
		e.Diff, e.ReplaceKeys = c.diff, c.replace
	}
	d.emit(e)
}
