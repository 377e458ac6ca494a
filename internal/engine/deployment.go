package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// deployment is one running operation: the generator's side of it (the
// registrations seen, the targets, the URN locks) and the executor that
// carries out its steps, over one view of the state (records) and one set
// of provider instances.
type deployment struct {
	opts *Options
	// ctx is cancelled to stop starting new steps; callCtx, derived from it
	// without its cancellation, is what provider calls run under, so a step
	// in flight finishes and is recorded.
	ctx     context.Context
	callCtx context.Context
	pool    *pool
	targets *targetSet
	recs    *records
	prov    *providerRegistry
	x       *executor
	locks   urnLocks
	work    sync.WaitGroup // registrations not yet done

	mu         sync.Mutex
	registered map[resource.URN]*regState
	// dbrDeleted holds the records deleted as dependents of a
	// delete-before-replace, by URN, until they are created again.
	dbrDeleted map[resource.URN]*state.Resource
	// aliased maps a URN taken over through an alias to the URN that took
	// it over.
	aliased map[resource.URN]resource.URN
	// replaceSet holds the URNs the operation's Replace option names.
	replaceSet map[resource.URN]bool
	errs       []error
	// ephemerals are the ephemeral resources the program opened; those
	// still open are closed when the operation ends.
	ephemerals []*ephemeralHandle
	outputs    resource.Object
	outputsSet bool
	// outputTypes are the types the program gave its outputs
	// (OutputTyper), nil if it gave none.
	outputTypes map[string]json.RawMessage
	// recorded are the stack outputs as the base snapshot has them, and
	// recordedTypes their types.
	recorded      resource.Object
	recordedTypes map[string]json.RawMessage
	// forget, if set, says which resources the program no longer
	// registers to forget rather than delete (see Forgetter).
	forget func(resource.URN) bool
	// condemnOnce deletes, once, what the program did not register: when
	// the program calls Finish, else after it (see Finisher).
	condemnOnce sync.Once
	// served is the resource monitor started for component providers.
	served servedMonitor
	// goneWith holds the URNs of resources deleted in the world in this
	// operation, for deletedWith (deletedwith.go).
	goneWith map[resource.URN]bool
}

// resourcesIn is how many resources base records: the size a program
// that registers them again grows the map of registrations to, made at
// once rather than doubled (and every entry rehashed) some 17 times on
// the goroutine that runs the program, for 100,000 resources.
func resourcesIn(base *state.Snapshot) int {
	if base == nil {
		return 0
	}
	return len(base.Resources)
}

// newDeployment prepares an operation over base. preview is decided here,
// once: it chooses the executor's effects.
func newDeployment(ctx context.Context, base *state.Snapshot, opts *Options, preview bool) *deployment {
	d := &deployment{
		opts:       opts,
		ctx:        ctx,
		callCtx:    context.WithoutCancel(ctx),
		pool:       newPool(opts.parallel()),
		targets:    newTargetSet(opts.Targets, opts.Excludes),
		recs:       newRecords(base),
		registered: make(map[resource.URN]*regState, resourcesIn(base)),
		dbrDeleted: map[resource.URN]*state.Resource{},
		aliased:    map[resource.URN]resource.URN{},
		replaceSet: map[resource.URN]bool{},
	}
	for _, u := range opts.Replace {
		d.replaceSet[u] = true
	}
	if opts.HardCancel != nil {
		d.callCtx = mergeCancel(d.callCtx, opts.HardCancel)
	}
	d.x = newExecutor(d.callCtx, opts, d.recs, preview)
	d.x.opCtx = ctx
	d.x.failOp = d.fail
	d.prov = newProviderRegistry(opts.Providers, d.callCtx)
	d.prov.recorded, d.prov.configure, d.prov.registerDefault = d.recs.find, d.x.fx.configure, d.registerDefaultProvider
	d.prov.defaultName = opts.defaultProviderName
	d.x.prov = d.prov
	// Providers are told to stop outstanding work when calls in flight are
	// to be cut short: on HardCancel if the caller distinguishes a hard
	// cancel (the CLI's second Ctrl-C), else on cancel.
	if opts.HardCancel != nil {
		context.AfterFunc(opts.HardCancel, d.prov.signalAll)
	} else {
		context.AfterFunc(ctx, d.prov.signalAll)
	}
	if base != nil {
		d.outputs, d.recorded = base.Outputs, base.Outputs
		d.recordedTypes = base.OutputTypes
	}
	return d
}

// mergeCancel returns a context cancelled when either parent is done,
// keeping the values and deadline of the first.
func mergeCancel(ctx, other context.Context) context.Context {
	merged, cancel := context.WithCancelCause(ctx)
	context.AfterFunc(other, func() { cancel(context.Cause(other)) })
	return merged
}

// stopped reports whether new steps must not start: the operation was
// cancelled or a step failed.
func (d *deployment) stopped() error {
	if err := d.ctx.Err(); err != nil {
		return fmt.Errorf("not started: the operation was cancelled")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.errs) > 0 {
		return errSkipped
	}
	return nil
}

// errSkipped marks a step not started because an earlier one failed; it is
// reported to the program but not counted as a failure of its own.
var errSkipped = errors.New("not started because an earlier step failed")

func (d *deployment) fail(err error) {
	if err == nil || errors.Is(err, errSkipped) {
		return
	}
	d.mu.Lock()
	d.errs = append(d.errs, err)
	d.mu.Unlock()
}

func (d *deployment) failed() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.errs) > 0
}

func (d *deployment) result(start time.Time) *Result {
	d.x.mu.Lock()
	counts := make(map[StepOp]int, len(d.x.counts))
	for k, v := range d.x.counts {
		counts[k] = v
	}
	retained := d.x.retained
	d.x.mu.Unlock()
	d.mu.Lock()
	defer d.mu.Unlock()
	return &Result{Counts: counts, Retained: retained, Outputs: d.outputs, Duration: time.Since(start)}
}

// err joins the step failures into the operation's error.
func (d *deployment) err(verb string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.errs) == 0 {
		if d.ctx.Err() != nil {
			return fmt.Errorf("%s cancelled: steps in flight finished and were recorded", verb)
		}
		return nil
	}
	return &OperationError{Verb: verb, Errs: append([]error(nil), d.errs...)}
}

// OperationError reports the steps that failed in an operation.
type OperationError struct {
	Verb string
	Errs []error
}

func (e *OperationError) Error() string {
	if len(e.Errs) == 1 {
		return fmt.Sprintf("%s failed: %v", e.Verb, e.Errs[0])
	}
	msg := fmt.Sprintf("%s failed with %d errors:", e.Verb, len(e.Errs))
	for _, err := range e.Errs {
		msg += "\n  - " + err.Error()
	}
	return msg
}

// Unwrap returns the step errors.
func (e *OperationError) Unwrap() []error { return e.Errs }
