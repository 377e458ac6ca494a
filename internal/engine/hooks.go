package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Hooks are functions of the program run around a resource's create (a
// replacement's too) and in-place update, and around its delete, as
// Pulumi's resource hooks are; a component's after-create and
// after-update hooks run when it registers its outputs. A before hook that
// fails fails the step before the provider is called; an after hook that
// fails fails the operation once the step is done and recorded (no
// further step starts), as in Pulumi v3.259 (pulumi/pulumi#22935, before
// which it was a warning). Either, with IgnoreErrors, is a warning.
//
// Delete hooks are named, not given: a resource the program no longer
// registers is deleted after the program has run, so the state records
// the names (state.Resource.DeleteHooks) and the delete finds the hooks
// through the HookFinder the program gives Finisher.Finish. A program
// that does not call Finish, and a destroy (which runs no program),
// cannot run them.
type Hooks struct {
	BeforeCreate, AfterCreate, BeforeUpdate, AfterUpdate []Hook
	// BeforeDelete and AfterDelete name the hooks run around the
	// resource's delete.
	BeforeDelete, AfterDelete []string
	// OnError run when the resource's create, update or delete fails
	// (errorhooks.go).
	OnError []ErrorHook
}

// HookFinder finds one of the program's hooks by the name it registered
// it under.
type HookFinder func(name string) (Hook, bool)

// Finisher is implemented by the Monitor an update's program runs
// against. A program whose hooks may run after it has registered
// everything calls Finish before it exits (Pulumi's SDKs do, through
// SignalAndWaitForShutdown): the engine then deletes what the program did
// not register, finding the recorded delete hooks through find, and
// Finish returns when those deletes are done. Without it the deletes come
// after the program has exited, and a resource with delete hooks fails
// to delete.
type Finisher interface {
	Finish(find HookFinder, findError ErrorHookFinder)
}

// Hook is one resource hook.
type Hook struct {
	Name string
	// OnPreview runs the hook in a preview too.
	OnPreview bool
	// IgnoreErrors makes the failure of a before hook a warning.
	IgnoreErrors bool
	Run          func(ctx context.Context, call HookCall) error
}

// HookCall is what a hook is told about the resource: the inputs and
// outputs it has before the step (Old) and after or, for a before hook,
// the inputs it is going to have (New).
type HookCall struct {
	URN                    resource.URN
	ID                     string
	NewInputs, OldInputs   resource.Object
	NewOutputs, OldOutputs resource.Object
}

// hookCall describes a step's resource to its hooks: nr is the new
// record, old the recorded one (nil for a create).
func hookCall(nr, old *state.Resource) HookCall {
	call := HookCall{URN: nr.URN, ID: nr.ID, NewInputs: nr.Inputs, NewOutputs: nr.Outputs}
	if nr.ID == UnknownID {
		call.ID = ""
	}
	if old != nil {
		call.OldInputs, call.OldOutputs = old.Inputs, old.Outputs
	}
	return call
}

// componentHooks are the create or update hooks of a component's step
// (kind "create" or "update", "" for neither): a component is created
// when it is not recorded, updated when its inputs changed.
func componentHooks(reg *Registration, old, nr *state.Resource) (kind string, before, after []Hook) {
	switch {
	case old == nil:
		return "create", reg.Hooks.BeforeCreate, reg.Hooks.AfterCreate
	case !old.Inputs.Equal(nr.Inputs):
		return "update", reg.Hooks.BeforeUpdate, reg.Hooks.AfterUpdate
	}
	return "", nil, nil
}

// awaitOutputs keeps a component's after hooks until it registers its
// outputs, when Pulumi runs them: a component's step is done when it is
// registered, its outputs come later.
func (x *executor) awaitOutputs(urn resource.URN, kind string, after []Hook, call HookCall) {
	if len(after) == 0 {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.componentAfter == nil {
		x.componentAfter = map[resource.URN]func(resource.Object){}
	}
	x.componentAfter[urn] = func(outputs resource.Object) {
		call.NewOutputs = outputs
		x.afterHooks(kind, after, call)
	}
}

// outputsRegistered runs the after hooks a component's step left for
// its outputs, once.
func (x *executor) outputsRegistered(urn resource.URN, outputs resource.Object) {
	x.mu.Lock()
	run := x.componentAfter[urn]
	delete(x.componentAfter, urn)
	x.mu.Unlock()
	if run != nil {
		run(outputs)
	}
}

// deleteHookCall describes a resource about to be deleted to its hooks.
func deleteHookCall(r *state.Resource) HookCall {
	return HookCall{URN: r.URN, ID: r.ID, OldInputs: r.Inputs, OldOutputs: r.Outputs}
}

// setHookFinder gives the executor the program's hooks by name.
func (x *executor) setHookFinder(find HookFinder, findError ErrorHookFinder) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.findHook, x.findErrorHook = find, findError
}

// deleteHooks finds the delete hooks named (kind "before" or "after")
// for the resource urn.
func (x *executor) deleteHooks(urn resource.URN, kind string, names []string) ([]Hook, error) {
	if len(names) == 0 {
		return nil, nil
	}
	x.mu.Lock()
	find := x.findHook
	x.mu.Unlock()
	var out []Hook
	for _, name := range names {
		var h Hook
		ok := find != nil
		if ok {
			h, ok = find(name)
		}
		if !ok {
			return nil, &UnregisteredHookError{URN: urn, Kind: kind, Name: name, Ended: find == nil}
		}
		out = append(out, h)
	}
	return out, nil
}

// runDeleteHooks runs r's before-delete hooks and returns a function that
// runs its after-delete hooks, once it is deleted.
func (x *executor) runDeleteHooks(r *state.Resource) (after func(), err error) {
	before, err := x.deleteHooks(r.URN, "before", r.DeleteHooks.Before)
	if err != nil {
		return nil, err
	}
	afters, err := x.deleteHooks(r.URN, "after", r.DeleteHooks.After)
	if err != nil {
		return nil, err
	}
	call := deleteHookCall(r)
	if err := x.beforeHooks("delete", before, call); err != nil {
		return nil, err
	}
	return func() { x.afterHooks("delete", afters, call) }, nil
}

// refuseDeleteHooks refuses, before anything is deleted, a destroy that
// would delete resources with delete hooks: it runs no program, so the
// hooks cannot run (Pulumi refuses such a destroy too, unless told to
// run the program).
func refuseDeleteHooks(doomed []*state.Resource) error {
	var errs []error
	for _, r := range doomed {
		for _, f := range []struct {
			kind  string
			names []string
		}{{"before", r.DeleteHooks.Before}, {"after", r.DeleteHooks.After}} {
			for _, name := range f.names {
				errs = append(errs, &UnregisteredHookError{URN: r.URN, Kind: f.kind, Name: name, Ended: true})
			}
		}
	}
	return errors.Join(errs...)
}

// UnregisteredHookError is a delete hook the state records that the
// program has not registered this run.
type UnregisteredHookError struct {
	URN  resource.URN
	Kind string // before or after
	Name string
	// Ended says no program was there to ask: a destroy, or a program
	// that exited without waiting for its deletes.
	Ended bool
}

func (e *UnregisteredHookError) Error() string {
	if e.Ended {
		return fmt.Sprintf("%s: its %s-delete hook %q cannot run: hooks are functions of the program, and the program was not running when the resource was deleted (a destroy does not run it); remove the resource from the program and run `plinth up`, which runs its delete hooks, or remove the hook from its hooks option and run `plinth up` first", e.URN, e.Kind, e.Name)
	}
	return fmt.Sprintf("%s: its %s-delete hook %q is not registered by the program: the state names it, so the program must still register a hook of that name (even when it no longer declares the resource) for the resource to be deleted", e.URN, e.Kind, e.Name)
}

// beforeHooks runs hooks before a step (kind "create" or "update"); the
// first failure not ignored is the step's error.
func (x *executor) beforeHooks(kind string, hooks []Hook, call HookCall) error {
	for _, h := range hooks {
		if !x.fx.runsHook(h) {
			continue
		}
		if err := x.runHook(h, call); err != nil {
			if !h.IgnoreErrors {
				return fmt.Errorf("%s: the before-%s hook %q failed, so the resource was not %sd: %w", call.URN, kind, h.Name, kind, err)
			}
			x.warn("%s: the before-%s hook %q failed (its errors are ignored): %v", call.URN, kind, h.Name, err)
		}
	}
	return nil
}

// afterHooks runs hooks after a step, which stands: a failure fails the
// operation, or with IgnoreErrors is a warning.
func (x *executor) afterHooks(kind string, hooks []Hook, call HookCall) {
	for _, h := range hooks {
		if !x.fx.runsHook(h) {
			continue
		}
		err := x.runHook(h, call)
		switch {
		case err == nil:
		case h.IgnoreErrors:
			x.warn("%s: the after-%s hook %q failed (its errors are ignored): %v", call.URN, kind, h.Name, err)
		default:
			x.failOp(stepError(call.URN, fmt.Errorf("%s: the after-%s hook %q failed (the resource was %sd, and is recorded as such): %w", call.URN, kind, h.Name, kind, err)))
		}
	}
}

// runHook runs one hook, a panic in it an error.
func (x *executor) runHook(h Hook, call HookCall) error {
	return guard(func() error { return h.Run(x.ctx, call) })
}
