package engine

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// executor carries out steps. Each step kind (steps*.go) asks it to
// bracket a provider call that may change the world with the journal's
// begin and end entries (journal.go), to settle a failed call (outcome.go),
// to apply the outcome to the records and to report the step as events and
// counts. Whether anything is changed is decided once, when the executor
// is made: its effects are either applying (providers act, the journal
// records) or planning (providers plan, nothing is recorded); see
// effects.go. No step asks whether it runs in a preview.
//
// An executor is one pool task's view of the operation's execution: a
// step run in a pool task (runIn) holds the task's slot, and gives it back
// (yieldSlot) while its last journal entry becomes durable; every other
// executor, d.x among them, holds none.
type executor struct {
	*execution
	slot *slot
}

// execution is what the executors of one operation share.
type execution struct {
	opts *Options
	// ctx is what provider calls run under: not cancelled with the
	// operation, so that a step in flight finishes and is recorded.
	ctx context.Context
	// opCtx is the operation's context, cancelled by the first Ctrl-C:
	// provisioners stop on it (provision.go).
	opCtx   context.Context
	fx      effects
	recs    *records
	prov    *providerRegistry
	steps   atomic.Uint64
	preview bool // only for the events' Preview field

	mu            sync.Mutex
	counts        map[StepOp]int
	retained      int             // discards of retainOnDelete resources (Result.Retained)
	findHook      HookFinder      // the program's hooks, for delete hooks (hooks.go)
	findErrorHook ErrorHookFinder // and its error hooks (errorhooks.go)
	// componentAfter are the after hooks of the components created or
	// updated, run when they register their outputs (hooks.go).
	componentAfter map[resource.URN]func(outputs resource.Object)
	// failOp fails the operation without failing the step under way (an
	// after hook that failed: hooks.go).
	failOp func(error)
	// alike shares equal inputs between new records (alike.go).
	alike alikeInputs
}

func newExecutor(ctx context.Context, opts *Options, recs *records, preview bool) *executor {
	x := &executor{execution: &execution{opts: opts, ctx: ctx, recs: recs, preview: preview, counts: map[StepOp]int{}}}
	if preview {
		x.fx = planning{recs: recs}
	} else {
		x.fx = applying{journal: opts.Journal, ctx: ctx, recs: recs, now: opts.now}
	}
	return x
}

// run carries out one step, once Options.CheckStep allows it. The step
// holds no slot: a step that runs others (a replacement's delete and
// create) goes on after each, so none may give its slot back.
func (x *executor) run(s step) (Registered, error) {
	if err := x.check(s); err != nil {
		return Registered{}, err
	}
	if x.slot != nil {
		x = &executor{execution: x.execution}
	}
	return s.apply(x)
}

// runIn carries out one step as the whole of the pool task that holds
// slot: the step may give the slot back as it finishes (see yieldSlot);
// what the task does after the step must need no slot either (report the
// result, queue what waited for it).
func (x *executor) runIn(sl *slot, s step) (Registered, error) {
	if err := x.check(s); err != nil {
		return Registered{}, err
	}
	return s.apply(&executor{execution: x.execution, slot: sl})
}

func (x *executor) now() time.Time { return x.opts.now() }

func (x *executor) count(op StepOp) {
	x.mu.Lock()
	x.counts[op]++
	x.mu.Unlock()
}

// countDelete counts a delete; the deletes that are halves of a
// replacement are counted with the replacement.
func (x *executor) countDelete(r *state.Resource, shown StepOp) {
	if shown != OpDeleteReplaced && !isDefaultProvider(r) {
		x.count(shown)
	}
}

func (x *executor) emit(e Event) {
	if x.opts.Events != nil {
		e.Preview = x.preview
		x.opts.Events(e)
	}
}

func (x *executor) warn(format string, args ...any) {
	x.emit(Event{Kind: EventDiagnostic, Severity: SeverityWarning, Message: fmt.Sprintf(format, args...)})
}

// started reports a step's start and returns the time it started.
func (x *executor) started(op StepOp, old, nu *state.Resource, c *change) time.Time {
	x.emit(stepEvent(EventStepStart, op, old, nu, c))
	return time.Now()
}

// done reports a step's end.
func (x *executor) done(op StepOp, old, nu *state.Resource, c *change, start time.Time, err error) {
	e := stepEvent(EventStepDone, op, old, nu, c)
	e.Duration, e.Err = time.Since(start), err
	x.emit(e)
}

func stepEvent(kind EventKind, op StepOp, old, nu *state.Resource, c *change) Event {
	r := nu
	if r == nil {
		r = old
	}
	e := Event{Kind: kind, Op: op, URN: r.URN, Type: r.Type, Old: old, New: nu}
	if c != nil {
		e.Diff, e.ReplaceKeys, e.ReplaceReason = c.diff, c.replace, c.reason
		e.DeleteFirst = c.op == OpReplace && c.dbr
	}
	return e
}

// timeoutFor picks a step's timeout: the resource's own, else the
// operation's default.
func (x *executor) timeoutFor(t time.Duration) time.Duration {
	if t > 0 {
		return t
	}
	return x.opts.DefaultTimeout
}

// newResource builds the state record of a registration.
func (x *executor) newResource(urn resource.URN, reg *Registration, inputs resource.Object, ref string) *state.Resource {
	now := x.now()
	r := &state.Resource{
		URN: urn, Type: reg.Type, Custom: reg.Custom, Inputs: inputs, Parent: reg.Parent,
		Provider: ref, Dependencies: reg.Dependencies, DependencyGroups: reg.DependencyGroups, PropertyDependencies: reg.PropertyDependencies,
		Protect: reg.Protect, RetainOnDelete: reg.RetainOnDelete, DeleteBeforeReplace: reg.DeleteBeforeReplace,
		IgnoreChanges: reg.IgnoreChanges, ReplaceOnChanges: reg.ReplaceOnChanges,
		CustomTimeouts:      state.CustomTimeouts(reg.CustomTimeouts),
		DestroyProvisioners: destroyProvisioners(reg),
		DeletedWith:         reg.DeletedWith, AdditionalSecretOutputs: reg.AdditionalSecretOutputs,
		InputTypes:  reg.InputTypes,
		DeleteHooks: state.DeleteHooks{Before: reg.Hooks.BeforeDelete, After: reg.Hooks.AfterDelete, OnError: errorHookNames(reg.Hooks.OnError)},
		Created:     now, Modified: now,
	}
	sealSecrets(r)
	r.Inputs = x.alike.share(r.Type, r.Inputs)
	return r
}
