package engine

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// ProtectedError refuses to delete or replace a protected resource.
type ProtectedError struct {
	URN    resource.URN
	Action string
}

func (e *ProtectedError) Error() string {
	return fmt.Sprintf("cannot %s %s: it is protected by the `protect` option; set protect to false and run `plinth up` first if you really mean to %s it", e.Action, e.URN, e.Action)
}

// replace replaces a resource: the guide's fresh Check with no old inputs,
// then create before delete, or delete before create when the provider or
// the deleteBeforeReplace option demands it.
func (d *deployment) replace(c *change, news resource.Object) (Registered, error) {
	if c.old.Protect {
		err := &ProtectedError{URN: c.urn, Action: "replace"}
		d.done(OpReplace, c.old, c.old, c, d.started(OpReplace, c.old, c.old, c), err)
		return Registered{}, err
	}
	checked, err := d.check(c, news, false)
	if err != nil {
		return Registered{}, err
	}
	c.inputs = checked
	if !c.dbr {
		return d.create(c, createBeforeDel)
	}
	return d.replaceDeleteFirst(c)
}

// replaceDeleteFirst deletes the transitive closure of the resource's
// dependents (dependents first), then the resource, then creates its
// replacement. The dependents are created again when the program
// registers them.
func (d *deployment) replaceDeleteFirst(c *change) (Registered, error) {
	closure, unlock := d.lockDependents(c.urn)
	defer unlock()
	for _, r := range closure {
		if r.Protect {
			return Registered{}, &ProtectedError{URN: r.URN, Action: fmt.Sprintf("delete (to replace %s, which it depends on)", c.urn)}
		}
	}
	for _, r := range closure {
		if err := d.deleteOne(r, OpDeleteReplaced, false); err != nil {
			return Registered{}, err
		}
		if !r.Delete {
			d.markDBRDeleted(r.URN)
		}
	}
	if err := d.deleteOne(c.old, OpDeleteReplaced, false); err != nil {
		return Registered{}, err
	}
	return d.create(c, replacementCreate)
}

// lockDependents takes the URN locks of every live resource that depends,
// directly or not, on urn, and returns them dependents-first. Taking a lock
// waits for a step in flight on that resource; once all are held the
// closure is worked out again, since a finished step may have dropped the
// dependency.
func (d *deployment) lockDependents(urn resource.URN) ([]*state.Resource, func()) {
	first := d.dependents(urn)
	urns := make([]string, 0, len(first))
	for _, r := range first {
		if r.URN != urn { // held already by the caller's step
			urns = append(urns, string(r.URN))
		}
	}
	sort.Strings(urns)
	urns = slices.Compact(urns)
	var unlocks []func()
	for _, u := range urns {
		unlocks = append(unlocks, d.locks.lock(resource.URN(u)))
	}
	release := func() {
		for _, u := range unlocks {
			u()
		}
	}
	return d.dependents(urn), release
}

// dependents returns the recorded resources that depend on urn,
// transitively, ordered so that each comes before what it depends on. A
// live resource's references name live resources, so it is caught only
// through live ones; a resource pending deletion may have been made when
// an older resource held a URN, so it is caught through either.
func (d *deployment) dependents(urn resource.URN) []*state.Resource {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.referrers == nil {
		d.buildReferrers()
	}
	type via struct {
		urn  resource.URN
		dead bool // reached through a resource pending deletion
	}
	queue := []via{{urn: urn}}
	seen := map[state.Key]bool{}
	var found []*state.Resource
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		for k, r := range d.referrers[at.urn] {
			if seen[k] || (at.dead && !r.Delete) || (!r.Delete && r.URN == urn) {
				continue
			}
			seen[k] = true
			found = append(found, r)
			queue = append(queue, via{urn: r.URN, dead: r.Delete})
		}
	}
	sorted := state.SortByDependency(found)
	slices.Reverse(sorted)
	return sorted
}

func (d *deployment) markDBRDeleted(urn resource.URN) {
	d.mu.Lock()
	d.dbrDeleted[urn] = true
	d.mu.Unlock()
}

func (d *deployment) dbrPending(urn resource.URN) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dbrDeleted[urn]
}

// takeDBRDeleted reports whether urn was deleted as a dependent of a
// delete-before-replace, and forgets it: its create is a replacement.
func (d *deployment) takeDBRDeleted(urn resource.URN) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	was := d.dbrDeleted[urn]
	delete(d.dbrDeleted, urn)
	return was
}

// deleteOne deletes one recorded resource: through its provider for a
// custom resource, from state alone for a component or provider resource
// or one with retainOnDelete. destroying says the whole stack is going.
func (d *deployment) deleteOne(r *state.Resource, shown StepOp, destroying bool) error {
	if r.Missing {
		return d.write(state.OpRemove, r, nil) // gone already; nothing to show
	}
	if !r.Protect {
		if holder := d.claimSharedID(r); holder != nil {
			return d.forgetShared(r, holder, shown)
		}
	}
	start := d.started(shown, r, nil, nil)
	if r.Protect {
		err := &ProtectedError{URN: r.URN, Action: "delete"}
		d.done(shown, r, nil, nil, start, err)
		return err
	}
	if r.RetainOnDelete || !r.Custom || isProvider(r.Type) {
		op, counted := state.OpDelete, shown
		if r.RetainOnDelete {
			op, counted = state.OpRemove, OpDiscard
		}
		if err := d.write(op, r, nil); err != nil {
			return err
		}
		d.countDelete(r, counted)
		d.done(shown, r, nil, nil, start, nil)
		return nil
	}
	if d.preview {
		d.countDelete(r, shown)
		d.done(shown, r, nil, nil, start, nil)
		return nil
	}
	return d.deleteCustom(r, shown, start)
}

// forgetShared removes from the state alone a resource whose ID a live
// resource holds too: a replacement that came back with the old ID (a file
// at the same path, a name-derived ID), or a renamed resource. Deleting it
// would delete what the live one stands for.
func (d *deployment) forgetShared(r, holder *state.Resource, shown StepOp) error {
	start := time.Now()
	d.warn("%s was not deleted: %s holds the same ID %q, so it is the same %s; plinth dropped the old record from the state only", r.URN, holder.URN, r.ID, r.Type)
	if err := d.write(state.OpRemove, r, nil); err != nil {
		return err
	}
	if shown != OpDeleteReplaced {
		d.count(OpDiscard)
	}
	d.emit(Event{Kind: EventStepDone, Op: OpDiscard, URN: r.URN, Type: r.Type, Old: r, Duration: time.Since(start),
		Message: fmt.Sprintf("not deleted: %s holds the same ID", holder.URN)})
	return nil
}

func (d *deployment) deleteCustom(r *state.Resource, shown StepOp, start time.Time) error {
	inst, err := d.prov.forRef(r.Provider)
	if err != nil {
		err = fmt.Errorf("deleting %s: %w", r.URN, err)
		d.done(shown, r, nil, nil, start, err)
		return err
	}
	step, err := d.begin(state.OpDelete, r, nil)
	if err != nil {
		return err
	}
	err = d.call(r.CustomTimeouts.Delete, func(ctx context.Context) error {
		_, err := inst.p.Delete(ctx, provider.DeleteRequest{URN: r.URN, ID: r.ID, Inputs: r.Inputs, Outputs: r.Outputs, Timeout: r.CustomTimeouts.Delete, Private: r.Private})
		return err
	})
	if err != nil {
		err = d.failedCall(step, state.OpDelete, r, nil, err)
		d.done(shown, r, nil, nil, start, err)
		return err
	}
	if err := d.end(step, state.OpDelete, r, nil); err != nil {
		return err
	}
	d.countDelete(r, shown)
	d.done(shown, r, nil, nil, start, nil)
	return nil
}

// countDelete counts a delete; the deletes that are halves of a
// replacement are counted with the replacement.
func (d *deployment) countDelete(r *state.Resource, shown StepOp) {
	if shown != OpDeleteReplaced && !isDefaultProvider(r) {
		d.count(shown)
	}
}
