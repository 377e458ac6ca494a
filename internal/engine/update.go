package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Update runs the program and makes the world match it: every registration
// goes through Check and Diff to same, create, update or replace, then what
// the program no longer registers is deleted, dependents first. Every change
// is recorded in opts.Journal. With targets, what the targets depend on is
// updated too.
func Update(ctx context.Context, prog Program, base *state.Snapshot, opts Options) (*Result, error) {
	if opts.Journal == nil {
		return nil, errors.New("update needs a journal to record its changes")
	}
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if err := blockingPending(base); err != nil {
		return nil, err
	}
	if err := expandTargets(ctx, prog, base, &opts); err != nil {
		return nil, err
	}
	return run(ctx, prog, base, &opts, false)
}

// Preview runs the program and reports what an update would do, changing
// nothing: providers are asked to plan creates and updates (preview=true)
// and unknown values flow to dependents.
// With targets, the preview works out the same targets as the update
// (see expandTargets), so it shows exactly the steps the update takes.
func Preview(ctx context.Context, prog Program, base *state.Snapshot, opts Options) (*Result, error) {
	opts.Journal = nil
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if err := expandTargets(ctx, prog, base, &opts); err != nil {
		return nil, err
	}
	return run(ctx, prog, base, &opts, true)
}

func run(ctx context.Context, prog Program, base *state.Snapshot, opts *Options, preview bool) (*Result, error) {
	start := time.Now()
	d := newDeployment(ctx, base, opts, preview)
	defer d.prov.closeAll()
	defer d.served.stop()
	if f, ok := prog.(Forgetter); ok {
		d.forget = f.Forget
	}
	if !preview {
		if err := d.acknowledgePending(base); err != nil {
			return d.result(start), err
		}
	}
	progErr := d.runProgram(prog)
	if progErr == nil {
		d.deleteCondemned()
	}
	d.fail(d.closeEphemerals())
	if progErr != nil {
		d.keepRecordedOutputs()
	}
	if !preview { // a preview reports the outputs as the program set them
		d.fail(d.recordOutputs())
	}
	d.pool.close()
	verb := "update"
	if preview {
		verb = "preview"
	}
	err := d.err(verb)
	if progErr != nil && err == nil {
		err = progErr
	}
	return d.result(start), err
}

// runProgram runs the program against a monitor and waits until every
// registration it made is done.
func (d *deployment) runProgram(prog Program) error {
	err := guard(func() error { return prog.Run(d.ctx, programMonitor{monitor{d}}) })
	d.work.Wait()
	if err != nil && !d.failed() {
		return fmt.Errorf("the program failed: %w", err)
	}
	return nil
}

// programMonitor is the Monitor an update's program runs against: the
// one that can Finish.
type programMonitor struct{ monitor }

var _ Finisher = programMonitor{}

// Finish implements Finisher.
func (m programMonitor) Finish(find HookFinder, findError ErrorHookFinder) {
	m.d.x.setHookFinder(find, findError)
	m.d.work.Wait()
	m.d.deleteCondemned()
}

// deleteCondemned deletes what the program did not register, unless the
// operation has failed or been cancelled; only the first call does
// anything.
func (d *deployment) deleteCondemned() {
	d.condemnOnce.Do(func() {
		if d.failed() || d.ctx.Err() != nil {
			return
		}
		d.deleteAll(d.condemned(), deleteShown)
		d.countUnrecreated()
	})
}

// keepRecordedOutputs forgets the outputs a program set before it failed
// by itself (not through a step): they are what it got to, if anything.
// Pulumi's Go SDK, under pulumi-language-yaml, registers the stack's
// outputs even then, and an empty set would replace the last update's
// (and a preview would show them all removed), where Pulumi's engine
// keeps them.
func (d *deployment) keepRecordedOutputs() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.outputs, d.outputsSet = d.recorded, false
}

// recordOutputs writes the stack outputs the program set. After a failed
// step it still writes those that could be computed: an output that is
// unknown (it depends on a resource that failed) keeps its recorded value.
func (d *deployment) recordOutputs() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.outputsSet {
		return nil
	}
	outputs := d.outputs
	var types map[string]json.RawMessage
	if outputs != nil {
		outputs = resource.Object{}
		for k, v := range d.outputs {
			ty := d.outputTypes[k]
			if v.ContainsUnknowns() {
				old, ok := d.recorded[k]
				if !ok {
					continue
				}
				v, ty = old, d.recordedTypes[k]
			}
			outputs[k] = v
			if ty != nil {
				if types == nil {
					types = map[string]json.RawMessage{}
				}
				types[k] = ty
			}
		}
	}
	d.outputs = outputs
	if outputs.Equal(d.recorded) && (outputs == nil) == (d.recorded == nil) && sameTypes(types, d.recordedTypes) {
		return nil
	}
	if err := d.x.writeEntry(state.Entry{Kind: state.Write, Op: state.OpOutputs, Outputs: outputs, OutputTypes: types}); err != nil {
		return fmt.Errorf("recording the stack outputs: %w", err)
	}
	return nil
}

// sameTypes reports whether two sets of output types are the same.
func sameTypes(a, b map[string]json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for k, t := range a {
		if u, ok := b[k]; !ok || !bytes.Equal(t, u) {
			return false
		}
	}
	return true
}

// countUnrecreated counts as deletes the dependents that a
// delete-before-replace removed and the program did not register again.
func (d *deployment) countUnrecreated() {
	d.mu.Lock()
	n := len(d.dbrDeleted)
	d.mu.Unlock()
	d.x.mu.Lock()
	defer d.x.mu.Unlock()
	if n > 0 {
		d.x.counts[OpDelete] += n
	}
}

// PendingError refuses an operation while creates from an interrupted run
// are unresolved: running again could create those resources twice.
type PendingError struct {
	Pending []state.PendingOperation
}

func (e *PendingError) Error() string {
	msg := fmt.Sprintf("the stack has %d pending operation(s) from an interrupted run that must be resolved first:", len(e.Pending))
	for _, p := range e.Pending {
		msg += "\n  - " + p.Describe()
	}
	return msg
}

func blockingPending(base *state.Snapshot) error {
	if base == nil {
		return nil
	}
	var blocking []state.PendingOperation
	for _, p := range base.Pending {
		if p.Blocks() {
			blocking = append(blocking, p)
		}
	}
	if len(blocking) > 0 {
		return &PendingError{Pending: blocking}
	}
	return nil
}

// acknowledgePending warns of interrupted updates and deletes and clears
// them: the resources are still recorded, so the steps of this operation
// bring them up to date.
func (d *deployment) acknowledgePending(base *state.Snapshot) error {
	if base == nil {
		return nil
	}
	// One resolve clears every pending operation on its URN, so a URN
	// with a pending create as well is left for `plinth state pending`.
	resolved := map[resource.URN]bool{}
	for _, p := range base.Pending {
		if p.Blocks() {
			resolved[p.Resource.URN] = true
		}
	}
	for _, p := range base.Pending {
		if p.Blocks() {
			continue
		}
		d.x.warn("%s", p.Describe())
		// A resource can be left with an update and a delete pending.
		if resolved[p.Resource.URN] {
			continue
		}
		resolved[p.Resource.URN] = true
		e := state.Entry{Kind: state.Write, Op: state.OpResolve, New: &state.Resource{URN: p.Resource.URN}}
		if err := d.x.writeEntry(e); err != nil {
			return fmt.Errorf("clearing the pending %s of %s: %w", p.Op, p.Resource.URN, err)
		}
	}
	return nil
}

// recordingProgram runs a program, reporting each registration's URN and
// what it refers to.
type recordingProgram struct {
	prog Program
	seen func(urn resource.URN, refs []resource.URN)
}

func (r recordingProgram) Run(ctx context.Context, mon Monitor) error {
	return r.prog.Run(ctx, recordingMonitor{Monitor: mon, seen: r.seen})
}

type recordingMonitor struct {
	Monitor
	seen func(urn resource.URN, refs []resource.URN)
}

func (m recordingMonitor) Register(reg Registration, done func(Registered, error)) {
	if refs, err := references(&reg); err == nil {
		m.seen(m.URN(reg.Type, reg.Name, reg.Parent), refs)
	}
	m.Monitor.Register(reg, done)
}
