package engine

import (
	"fmt"
	"slices"
	"sort"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// replace generates a replacement: the guide's fresh Check with no old
// inputs, then create before delete, or delete before create when the
// provider or the deleteBeforeReplace option demands it.
func (d *deployment) replace(c *change, news resource.Object) (step, error) {
	if c.old.Protect {
		return refuseStep{op: OpReplace, old: c.old, nu: c.old, c: c, err: &ProtectedError{URN: c.urn, Action: "replace"}}, nil
	}
	checked, err := d.check(c, news, false)
	if err != nil {
		return nil, err
	}
	c.inputs = checked
	switch {
	case !c.dbr:
		return createStep{c, createBeforeDel}, nil
	case c.reg.ReplaceOnlySelf && !c.old.RetainOnDelete:
		return selfFirstStep{c}, nil
	}
	return deleteFirstStep{c: c, g: d}, nil
}

// selfFirstStep is a Terraform-style delete-before-replace: it deletes the
// resource alone and creates its replacement. What depends on it stays;
// while it is gone its record stays too, marked Missing, so that their
// references hold (a crash in between leaves what a refresh that found it
// deleted would: the next update creates it). The replacement is
// journaled as a replacement of that record, which is then dropped. The
// dependents are registered afterwards with its new outputs and diffed as
// usual.
type selfFirstStep struct{ c *change }

func (s selfFirstStep) apply(x *executor) (Registered, error) {
	c := s.c
	gone := c.old.Clone()
	gone.Missing, gone.Modified = true, x.now()
	if _, err := x.run(deleteStep{r: c.old, shown: OpDeleteReplaced, kept: gone}); err != nil {
		return Registered{}, err
	}
	c.gone = gone
	return x.run(createStep{c, createAfterDelete})
}

// deleteFirstStep is a delete-before-replace: it deletes the transitive
// closure of the resource's dependents (dependents first), then the
// resource, then creates its replacement. The dependents are created again
// when the program registers them. Which dependents there are is known
// only once their locks are held, so the step asks its generator for each
// delete as it goes.
type deleteFirstStep struct {
	c *change
	g *deployment
}

func (s deleteFirstStep) apply(x *executor) (Registered, error) {
	c, g := s.c, s.g
	closure, unlock := g.lockDependents(c.urn)
	defer unlock()
	for _, r := range closure {
		if r.Protect {
			return Registered{}, &ProtectedError{URN: r.URN, Action: fmt.Sprintf("delete (to replace %s, which it depends on)", c.urn)}
		}
	}
	g.deleting(append(closure, c.old))
	for _, r := range closure {
		if _, err := x.run(g.deleteStep(r, OpDeleteReplaced)); err != nil {
			return Registered{}, err
		}
		if !r.Delete {
			g.markDeletedAsDependent(r)
		}
	}
	if _, err := x.run(g.deleteStep(c.old, OpDeleteReplaced)); err != nil {
		return Registered{}, err
	}
	return x.run(createStep{c, replacementCreate})
}

// lockDependents takes the URN locks of every recorded resource that
// depends, directly or not, on urn, and returns them dependents-first.
// Taking a lock waits for a step in flight on that resource; once all are
// held the closure is worked out again, since a finished step may have
// dropped the dependency.
func (d *deployment) lockDependents(urn resource.URN) ([]*state.Resource, func()) {
	first := d.recs.dependents(urn)
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
	return d.recs.dependents(urn), release
}

// markDeletedAsDependent remembers a live resource deleted as a dependent
// of a delete-before-replace: its next create is a replacement.
func (d *deployment) markDeletedAsDependent(r *state.Resource) {
	d.mu.Lock()
	d.dbrDeleted[r.URN] = r
	d.mu.Unlock()
}

// deletedAsDependent returns the record deleted as a dependent of a
// delete-before-replace under urn, if any.
func (d *deployment) deletedAsDependent(urn resource.URN) *state.Resource {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dbrDeleted[urn]
}

// takeDBRDeleted reports whether urn was deleted as a dependent of a
// delete-before-replace, and forgets it: its create is a replacement.
func (d *deployment) takeDBRDeleted(urn resource.URN) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, was := d.dbrDeleted[urn]
	delete(d.dbrDeleted, urn)
	return was
}
