package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
)

// The steps that call a provider to change the world: create, update and
// delete. Each is bracketed by the journal (begin before the call, end or
// abort after it, nothing when the outcome is unknown; a pure step, one
// write after it: see bracket), and the call itself
// goes through the executor's effects, so a preview plans instead.

// how names the journal operation of a create, how it is shown and how it
// is counted.
type how struct {
	op      state.Op
	shown   StepOp
	counted StepOp
	// ofGone says the create replaces the change's Missing record (gone)
	// rather than its live one (old).
	ofGone bool
}

var (
	plainCreate       = how{state.OpCreate, OpCreate, OpCreate, false}
	replacementCreate = how{state.OpCreate, OpCreateReplacement, OpReplace, false}
	createBeforeDel   = how{state.OpReplace, OpCreateReplacement, OpReplace, false}
	// recreate creates a resource that a refresh found missing: journaled
	// as a replacement of its Missing record, which is then dropped.
	recreate = how{state.OpReplace, OpCreate, OpCreate, false}
	// createAfterDelete is the create of a Terraform-style delete-first
	// replacement (selfFirstStep): journaled, as recreate is, as a
	// replacement of the Missing record its delete kept.
	createAfterDelete = how{state.OpReplace, OpCreateReplacement, OpReplace, true}
)

// createStep creates a resource from checked inputs. With createBeforeDel
// the old resource stays, marked for deletion at the end of the operation.
type createStep struct {
	c *change
	h how
}

// replaced is the record the create journals as replaced, if any.
func (s createStep) replaced() *state.Resource {
	switch {
	case s.h == recreate || s.h.ofGone:
		return s.c.gone
	case s.h.op == state.OpReplace:
		return s.c.old
	}
	return nil
}

func (s createStep) apply(x *executor) (Registered, error) {
	c, h, old := s.c, s.h, s.replaced()
	nr := x.newResource(c.urn, c.reg, c.inputs, c.inst.ref)
	start := x.started(h.shown, c.old, nr, c)
	if err := x.beforeHooks("create", c.reg.Hooks.BeforeCreate, hookCall(nr, nil)); err != nil {
		x.done(h.shown, c.old, nr, c, start, err)
		return Registered{}, err
	}
	b, err := x.open(s.pure(), h.op, old, nr)
	if err != nil {
		return Registered{}, err
	}
	var resp provider.CreateResponse
	onError := ErrorHookCall{URN: c.urn, NewInputs: c.inputs, Operation: "create"}
	err = x.withErrorHooks(givenErrorHooks(c.reg.Hooks.OnError), onError, func() error {
		return x.call(c.reg.CustomTimeouts.Create, func(ctx context.Context) (err error) {
			resp, err = x.fx.create(ctx, c.inst.p, provider.CreateRequest{URN: c.urn, Inputs: c.inputs, Timeout: c.reg.CustomTimeouts.Create, Plan: x.planOf(c, OpCreate)})
			return err
		})
	})
	if err != nil {
		return Registered{}, x.createFailed(b, h, old, nr, err, start)
	}
	x.keepPlan(c, OpCreate, resp.Plan)
	if err := x.fx.created(nr, resp, c.inputs); err != nil {
		if !b.pure { // its begin stays: a pure create records nothing
			err = fmt.Errorf("%w; the create is left pending", err)
		}
		x.done(h.shown, c.old, nr, c, start, err)
		return Registered{}, err
	}
	x.recordDestroyProvisioners(c.reg, nr)
	provisioning := !x.preview && hasCreateProvisioners(c.reg)
	nr.Tainted = nr.Tainted || provisioning // until its provisioners have run
	if !provisioning && len(c.reg.Hooks.AfterCreate) == 0 {
		x.yieldSlot()
	}
	if err := x.close(b, h.op, old, nr); err != nil {
		return Registered{}, err
	}
	x.count(h.counted)
	if provisioning {
		if err := x.provisionCreated(c.reg, nr); err != nil {
			x.done(h.shown, c.old, nr, c, start, err)
			return Registered{}, err
		}
	}
	x.afterHooks("create", c.reg.Hooks.AfterCreate, hookCall(nr, nil))
	x.done(h.shown, c.old, nr, c, start, nil)
	return registered(nr), nil
}

// createFailed records a failed create: a partial create (the resource
// exists but did not initialise) is recorded with its ID; a clear error
// from the provider means nothing was made; any other error leaves the
// create pending (see failedCall).
func (x *executor) createFailed(b bracket, h how, old, nr *state.Resource, err error, start time.Time) error {
	var ie *provider.InitError
	if errors.As(err, &ie) && ie.ID != "" {
		nr.ID, nr.Outputs, nr.Private, nr.InitErrors = ie.ID, ie.Outputs, ie.Private, ie.Reasons
		markSecretID(nr, nr.Inputs, false)
		if rerr := x.close(b, h.op, old, nr); rerr != nil {
			return rerr
		}
		x.count(h.counted)
		err = fmt.Errorf("creating %s: %w", nr.URN, err)
	} else {
		err = x.failed(b, h.op, old, nr, err)
	}
	x.done(h.shown, old, nr, nil, start, err)
	return err
}

// pure says whether the create is journaled as one entry (see bracket):
// a plain create of a pure change (pureChange).
func (s createStep) pure() bool {
	h := s.c.reg.Hooks
	return s.h == plainCreate && pureChange(s.c, len(h.BeforeCreate)+len(h.AfterCreate)+len(h.OnError))
}

// pureChange says whether c's step can be journaled as one entry (see
// bracket): its type is one its in-process provider declares pure
// (provider.Pure; a plugin in another process never does), and it runs
// no provisioner and none of its step's hooks (hooks, their number),
// which act outside plinth's state.
func pureChange(c *change, hooks int) bool {
	return provider.IsPure(c.inst.p, c.reg.Type) && len(c.reg.Provisioners) == 0 && hooks == 0
}

// updateStep updates a resource in place.
type updateStep struct{ c *change }

// pure says whether the update is journaled as one entry (see bracket):
// an update of a pure change (pureChange).
func (s updateStep) pure() bool {
	h := s.c.reg.Hooks
	return pureChange(s.c, len(h.BeforeUpdate)+len(h.AfterUpdate)+len(h.OnError))
}

func (s updateStep) apply(x *executor) (Registered, error) {
	c := s.c
	nr := x.newResource(c.urn, c.reg, c.inputs, c.inst.ref)
	nr.ID, nr.Created, nr.Private = c.old.ID, c.old.Created, c.old.Private
	nr.SecretID = c.old.SecretID || idFromSecret(nr.ID, c.inputs)
	start := x.started(OpUpdate, c.old, nr, c)
	if err := x.beforeHooks("update", c.reg.Hooks.BeforeUpdate, hookCall(nr, c.old)); err != nil {
		x.done(OpUpdate, c.old, nr, c, start, err)
		return Registered{}, err
	}
	b, err := x.open(s.pure(), state.OpUpdate, c.old, nr)
	if err != nil {
		return Registered{}, err
	}
	ignore, _ := parsePaths("ignoreChanges", c.reg.IgnoreChanges)
	var resp provider.UpdateResponse
	onError := ErrorHookCall{URN: c.urn, ID: c.old.ID, NewInputs: c.inputs, OldInputs: c.old.Inputs, OldOutputs: c.old.Outputs, Operation: "update"}
	err = x.withErrorHooks(givenErrorHooks(c.reg.Hooks.OnError), onError, func() error {
		return x.call(c.reg.CustomTimeouts.Update, func(ctx context.Context) (err error) {
			resp, err = x.fx.update(ctx, c.inst.p, provider.UpdateRequest{
				URN: c.urn, ID: c.old.ID, OldInputs: c.old.Inputs, OldOutputs: c.old.Outputs, News: c.inputs,
				Timeout: c.reg.CustomTimeouts.Update, IgnoreChanges: ignore, Private: c.old.Private, Plan: x.planOf(c, OpUpdate),
			})
			return err
		})
	})
	if err != nil {
		return Registered{}, x.updateFailed(b, c, nr, err, start)
	}
	x.keepPlan(c, OpUpdate, resp.Plan)
	nr.Outputs, nr.Private = resp.Outputs, resp.Private
	markSecretID(nr, c.inputs, nr.SecretID)
	x.recordDestroyProvisioners(c.reg, nr)
	if len(c.reg.Hooks.AfterUpdate) == 0 {
		x.yieldSlot()
	}
	if err := x.close(b, state.OpUpdate, c.old, nr); err != nil {
		return Registered{}, err
	}
	x.count(OpUpdate)
	x.afterHooks("update", c.reg.Hooks.AfterUpdate, hookCall(nr, c.old))
	x.done(OpUpdate, c.old, nr, c, start, nil)
	return registered(nr), nil
}

// updateFailed records a failed update: a partial update is recorded; a
// clear error leaves the resource as it was; any other error leaves the
// update pending (see failedCall).
func (x *executor) updateFailed(b bracket, c *change, nr *state.Resource, err error, start time.Time) error {
	var ie *provider.InitError
	if errors.As(err, &ie) {
		nr.Outputs, nr.Private, nr.InitErrors = ie.Outputs, ie.Private, ie.Reasons
		if rerr := x.close(b, state.OpUpdate, c.old, nr); rerr != nil {
			return rerr
		}
		err = fmt.Errorf("updating %s: %w", c.urn, err)
	} else {
		err = x.failed(b, state.OpUpdate, c.old, nr, err)
	}
	x.done(OpUpdate, c.old, nr, c, start, err)
	return err
}

// deleteStep deletes a custom resource through its provider. With kept
// (r marked Missing), its record stays as kept (see selfFirstStep).
type deleteStep struct {
	r     *state.Resource
	shown StepOp
	kept  *state.Resource
}

func (s deleteStep) apply(x *executor) (Registered, error) {
	start := x.started(s.shown, s.r, nil, nil)
	after, err := x.runDeleteHooks(s.r)
	if err != nil {
		x.done(s.shown, s.r, nil, nil, start, err)
		return Registered{}, err
	}
	if err := x.fx.delete(x, s.r, s.kept, s.shown, start); err != nil {
		return Registered{}, err
	}
	x.countDelete(s.r, s.shown)
	after()
	x.done(s.shown, s.r, nil, nil, start, nil)
	return Registered{}, nil
}

// pureDelete says whether the delete of r through p is journaled as one
// entry (see bracket): a plain delete (no record kept, not part of a
// replacement) of a type p, in process, declares pure, with no destroy
// provisioners or delete hooks.
func pureDelete(p provider.Provider, r, kept *state.Resource, shown StepOp) bool {
	return kept == nil && shown == OpDelete && provider.IsPure(p, r.Type) &&
		len(r.DestroyProvisioners) == 0 && r.DeleteHooks.Empty()
}

// deleteCustom calls the provider's Delete, bracketed by the journal; a
// failed call is reported as the step done with its error. The end entry
// keeps the record as kept, if given (r marked Missing).
func (x *executor) deleteCustom(r, kept *state.Resource, shown StepOp, start time.Time) error {
	inst, err := x.prov.forRef(r.Provider)
	if err != nil {
		err = fmt.Errorf("deleting %s: %w", r.URN, err)
		x.done(shown, r, nil, nil, start, err)
		return err
	}
	if err := x.provisionDestroyed(r); err != nil {
		x.done(shown, r, nil, nil, start, err)
		return err
	}
	b, err := x.open(pureDelete(inst.p, r, kept, shown), state.OpDelete, r, nil)
	if err != nil {
		return err
	}
	onError := ErrorHookCall{URN: r.URN, ID: r.ID, OldInputs: r.Inputs, OldOutputs: r.Outputs, Operation: "delete"}
	err = x.withErrorHooks(x.recordedErrorHooks(r.URN, r.DeleteHooks.OnError), onError, func() error {
		return x.call(r.CustomTimeouts.Delete, func(ctx context.Context) error {
			_, err := inst.p.Delete(ctx, provider.DeleteRequest{URN: r.URN, ID: r.ID, Inputs: r.Inputs, Outputs: r.Outputs, Timeout: r.CustomTimeouts.Delete, Private: r.Private})
			return err
		})
	})
	if err != nil {
		err = x.failed(b, state.OpDelete, r, nil, err)
		x.done(shown, r, nil, nil, start, err)
		return err
	}
	if len(r.DeleteHooks.After) == 0 {
		x.yieldSlot()
	}
	return x.close(b, state.OpDelete, r, kept)
}
