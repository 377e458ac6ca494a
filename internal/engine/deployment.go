package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// deployment is one running operation: the state as it stands, the
// registrations seen, the provider instances, and the worker pool.
type deployment struct {
	opts    *Options
	preview bool
	// ctx is cancelled to stop starting new steps; callCtx, derived from it
	// without its cancellation, is what provider calls run under, so a step
	// in flight finishes and is recorded.
	ctx     context.Context
	callCtx context.Context
	pool    *pool
	steps   atomic.Uint64
	targets *targetSet
	prov    *providerRegistry
	locks   urnLocks
	work    sync.WaitGroup // registrations not yet done

	mu         sync.Mutex
	cur        map[resource.URN]*state.Resource // live resources
	deletes    map[state.Key]*state.Resource    // resources pending deletion
	registered map[resource.URN]*regState
	dbrDeleted map[resource.URN]bool
	referrers  map[resource.URN]map[state.Key]*state.Resource // nil until needed; see buildReferrers
	// ids maps a type and ID to the live resources holding it, so that no
	// Delete is sent for an ID a live resource still holds.
	ids map[physical]map[resource.URN]*state.Resource
	// aliased maps a URN taken over through an alias to the URN that took
	// it over.
	aliased    map[resource.URN]resource.URN
	counts     map[StepOp]int
	errs       []error
	outputs    resource.Object
	outputsSet bool
	// recorded are the stack outputs as the base snapshot has them.
	recorded resource.Object
}

func newDeployment(ctx context.Context, base *state.Snapshot, opts *Options, preview bool) *deployment {
	d := &deployment{
		opts:       opts,
		preview:    preview,
		ctx:        ctx,
		callCtx:    context.WithoutCancel(ctx),
		pool:       newPool(opts.parallel()),
		targets:    newTargetSet(opts.Targets, opts.Excludes),
		cur:        map[resource.URN]*state.Resource{},
		deletes:    map[state.Key]*state.Resource{},
		registered: map[resource.URN]*regState{},
		dbrDeleted: map[resource.URN]bool{},
		ids:        map[physical]map[resource.URN]*state.Resource{},
		aliased:    map[resource.URN]resource.URN{},
		counts:     map[StepOp]int{},
	}
	if opts.HardCancel != nil {
		d.callCtx = mergeCancel(d.callCtx, opts.HardCancel)
	}
	d.prov = newProviderRegistry(d)
	// Providers are told to stop outstanding work when calls in flight are
	// to be cut short: on HardCancel if the caller distinguishes a hard
	// cancel (the CLI's second Ctrl-C), else on cancel.
	if opts.HardCancel != nil {
		context.AfterFunc(opts.HardCancel, d.prov.signalAll)
	} else {
		context.AfterFunc(ctx, d.prov.signalAll)
	}
	if base != nil {
		for _, r := range base.Resources {
			if r.Delete {
				d.deletes[r.Key()] = r
			} else {
				d.cur[r.URN] = r
			}
		}
		d.outputs, d.recorded = base.Outputs, base.Outputs
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

func (d *deployment) count(op StepOp) {
	d.mu.Lock()
	d.counts[op]++
	d.mu.Unlock()
}

func (d *deployment) emit(e Event) {
	if d.opts.Events != nil {
		e.Preview = d.preview
		d.opts.Events(e)
	}
}

func (d *deployment) warn(format string, args ...any) {
	d.emit(Event{Kind: EventDiagnostic, Severity: SeverityWarning, Message: fmt.Sprintf(format, args...)})
}

// current returns the live resource with the URN, or nil.
func (d *deployment) current(urn resource.URN) *state.Resource {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cur[urn]
}

func (d *deployment) result(start time.Time) *Result {
	d.mu.Lock()
	defer d.mu.Unlock()
	counts := make(map[StepOp]int, len(d.counts))
	for k, v := range d.counts {
		counts[k] = v
	}
	return &Result{Counts: counts, Outputs: d.outputs, Duration: time.Since(start)}
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
