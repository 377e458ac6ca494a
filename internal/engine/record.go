package engine

import (
	"fmt"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
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
		if op == state.OpReplace {
			// The old resource awaits deletion, so that the preview shows
			// the delete that ends the replacement, as the update does.
			d.mirror(op, old, nu)
		}
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
		d.put(nu)
		d.holdID(nu)
	case state.OpReplace:
		condemned := old.Clone()
		condemned.Delete = true
		d.drop(old)
		d.put(condemned)
		d.put(nu)
		d.holdID(nu)
	case state.OpUpdate, state.OpSame, state.OpRead:
		d.drop(old)
		if nu != nil {
			d.put(nu)
		}
	case state.OpDelete, state.OpRemove:
		d.drop(old)
	}
}

// drop forgets a recorded resource; d.mu is held.
func (d *deployment) drop(r *state.Resource) {
	if r.Delete {
		if held, ok := d.deletes[r.Key()]; ok {
			d.unindex(held)
			delete(d.deletes, r.Key())
		}
	} else if held := d.cur[r.URN]; held == r || held != nil && held.ID == r.ID {
		d.unindex(held)
		d.unholdID(held)
		delete(d.cur, r.URN)
	}
}

// put records a resource; d.mu is held.
func (d *deployment) put(r *state.Resource) {
	if r.Delete {
		d.deletes[r.Key()] = r
	} else {
		if held := d.cur[r.URN]; held != nil {
			d.unindex(held)
			d.unholdID(held)
		}
		d.cur[r.URN] = r
	}
	d.index(r)
}

// physical names what a custom resource's ID stands for in the world. Only
// the IDs that providers returned in this operation are held: a create
// that comes back with the ID of a recorded resource of its type made that
// same thing again (a file at the same path). Two records that merely
// share an ID are not the same thing in general (Terraform's local_file
// takes its ID from the content's hash, so two files with one content
// share it), and both are deleted when they leave the program.
type physical struct{ typ, id string }

// holdID records that a live resource holds its ID; d.mu is held.
func (d *deployment) holdID(r *state.Resource) {
	if !r.Custom || r.ID == "" || r.ID == UnknownID || isProvider(r.Type) {
		return
	}
	k := physical{r.Type, r.ID}
	m := d.ids[k]
	if m == nil {
		m = map[resource.URN]*state.Resource{}
		d.ids[k] = m
	}
	m[r.URN] = r
}

// unholdID forgets that a live resource holds its ID; d.mu is held.
func (d *deployment) unholdID(r *state.Resource) {
	k := physical{r.Type, r.ID}
	if m := d.ids[k]; m != nil && m[r.URN] == r {
		delete(m, r.URN)
		if len(m) == 0 {
			delete(d.ids, k)
		}
	}
}

// claimSharedID reports another live resource that holds r's ID and is
// the same thing: it has r's URN (a replacement that came back with the
// old ID) or r's inputs (a renamed resource). Equal IDs alone do not make
// one thing: a Terraform local_file's ID is its content's hash, shared by
// two files with one content. When there is such a holder, r stops holding
// the ID at once, so that of two records of one thing both being deleted,
// exactly one is deleted in the world.
func (d *deployment) claimSharedID(r *state.Resource) *state.Resource {
	if !r.Custom || r.ID == "" {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, h := range d.ids[physical{r.Type, r.ID}] {
		if h != r {
			if !r.Delete {
				d.unholdID(r)
			}
			return h
		}
	}
	return nil
}

// The referrer index, built on first use (a delete-before-replace) and kept
// up to date from then on, maps a URN to the recorded resources that refer
// to it, so finding dependents costs what they number, not the stack.

func (d *deployment) buildReferrers() {
	d.referrers = map[resource.URN]map[state.Key]*state.Resource{}
	for _, r := range d.cur {
		d.index(r)
	}
	for _, r := range d.deletes {
		d.index(r)
	}
}

func (d *deployment) index(r *state.Resource) {
	if d.referrers == nil {
		return
	}
	for _, u := range r.References() {
		m := d.referrers[u]
		if m == nil {
			m = map[state.Key]*state.Resource{}
			d.referrers[u] = m
		}
		m[r.Key()] = r
	}
}

func (d *deployment) unindex(r *state.Resource) {
	if d.referrers == nil {
		return
	}
	for _, u := range r.References() {
		if m := d.referrers[u]; m != nil && m[r.Key()] == r {
			delete(m, r.Key())
		}
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
