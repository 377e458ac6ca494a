package engine

import (
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// deletedWith (Pulumi's option): a resource R with DeletedWith D goes away
// in the world when D is deleted (a child object inside a database, a
// file inside a directory), so when both are deleted in one operation,
// R's provider Delete is not called: it would fail, or cost time, on
// something already gone. R's record is just dropped. D may be deleted
// by a destroy, by leaving the program, or as the old half of a
// replacement; R is skipped whatever order the two are deleted in. As in
// Pulumi, D counts as deleted when it leaves the stack even if its own
// delete leaves the world alone (retainOnDelete, or read rather than
// managed): R is the user's to keep with it.

// deleting notes the resources about to leave the stack: all those a
// delete will reach but the protected, which refuse it.
func (d *deployment) deleting(rs []*state.Resource) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, r := range rs {
		if r.Protect {
			continue
		}
		if d.goneWith == nil {
			d.goneWith = map[resource.URN]bool{}
		}
		d.goneWith[r.URN] = true
	}
}

// deletedWithOther reports whether r is deleted along with a resource
// that this operation deletes.
func (d *deployment) deletedWithOther(r *state.Resource) bool {
	if r.DeletedWith == "" {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.goneWith[r.DeletedWith]
}
