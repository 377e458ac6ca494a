package engine

import (
	"context"
	"fmt"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Hooks are functions of the program run around a custom resource's
// create (a replacement's too) and in-place update, as Pulumi's resource
// hooks are. A before hook that fails fails the step before the provider
// is called; an after hook that fails is a warning. Delete hooks are not
// here: a resource the program no longer registers is deleted after the
// program, so the hook would have to be recorded in the state.
type Hooks struct {
	BeforeCreate, AfterCreate, BeforeUpdate, AfterUpdate []Hook
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

// afterHooks runs hooks after a step; a failure is a warning.
func (x *executor) afterHooks(kind string, hooks []Hook, call HookCall) {
	for _, h := range hooks {
		if !x.fx.runsHook(h) {
			continue
		}
		if err := x.runHook(h, call); err != nil {
			x.warn("%s: the after-%s hook %q failed: %v", call.URN, kind, h.Name, err)
		}
	}
}

// runHook runs one hook, a panic in it an error.
func (x *executor) runHook(h Hook, call HookCall) error {
	return guard(func() error { return h.Run(x.ctx, call) })
}
