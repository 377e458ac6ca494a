package state

import (
	"encoding/json"
	"fmt"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Live is a mutable state that journal entries are applied to, in order. It
// is how the journal is replayed onto a snapshot, and how an operation keeps
// the state it will compact at its end. Applying an entry costs O(1), so a
// run of n steps costs O(n), whatever the stack's size.
//
// Live is not safe for concurrent use; the journal serialises applies.
type Live struct {
	nodes   []*node // insertion order; removed nodes are tombstones
	byKey   map[Key]*node
	byURN   map[resource.URN]*node // live resources only
	removed int
	outputs resource.Object
	// outputTypes go with outputs (Snapshot.OutputTypes).
	outputTypes map[string]json.RawMessage
	pending     []PendingOperation
	// inflight holds Begin entries without their End or Fail, by step.
	inflight map[uint64]*Entry
	// inflightOrder keeps in-flight steps in the order they began.
	inflightOrder []uint64
	// referrers indexes who refers to whom; nil until Dependents is first
	// asked (see referrers.go).
	referrers referrers
}

type node struct {
	res     *Resource
	removed bool
}

// NewLive returns a Live holding the snapshot's contents. The snapshot's
// resources are shared, not copied; Live never modifies a resource it holds,
// it replaces it.
func NewLive(s *Snapshot) *Live {
	if s == nil {
		return &Live{byKey: map[Key]*node{}, byURN: map[resource.URN]*node{}, inflight: map[uint64]*Entry{}}
	}
	n := len(s.Resources)
	l := &Live{byKey: make(map[Key]*node, n), byURN: make(map[resource.URN]*node, n), inflight: map[uint64]*Entry{}}
	l.nodes = make([]*node, 0, n)
	slab := make([]node, n) // one allocation for the snapshot's nodes
	for i, r := range s.Resources {
		slab[i].res = r
		l.nodes = append(l.nodes, &slab[i])
		l.index(&slab[i])
	}
	l.outputs, l.outputTypes = s.Outputs, s.OutputTypes
	l.pending = append(l.pending, s.Pending...)
	return l
}

func (l *Live) add(r *Resource) {
	n := &node{res: r}
	l.nodes = append(l.nodes, n)
	l.index(n)
}

func (l *Live) index(n *node) {
	l.byKey[n.res.Key()] = n
	if !n.res.Delete {
		l.byURN[n.res.URN] = n
	}
	l.referrers.add(n.res)
}

func (l *Live) unindex(n *node) {
	delete(l.byKey, n.res.Key())
	if l.byURN[n.res.URN] == n {
		delete(l.byURN, n.res.URN)
	}
	l.referrers.remove(n.res)
}

func (l *Live) remove(k Key) error {
	n, ok := l.byKey[k]
	if !ok {
		return fmt.Errorf("state has no resource %s (id %q, pending delete %v)", k.URN, k.ID, k.Delete)
	}
	l.unindex(n)
	n.removed = true
	l.removed++
	if l.removed > 1024 && l.removed > len(l.nodes)/2 {
		l.compact()
	}
	return nil
}

func (l *Live) replace(k Key, r *Resource) error {
	n, ok := l.byKey[k]
	if !ok {
		return fmt.Errorf("state has no resource %s (id %q, pending delete %v)", k.URN, k.ID, k.Delete)
	}
	l.unindex(n)
	n.res = r
	l.index(n)
	return nil
}

func (l *Live) compact() {
	kept := l.nodes[:0]
	for _, n := range l.nodes {
		if !n.removed {
			kept = append(kept, n)
		}
	}
	clear(l.nodes[len(kept):])
	l.nodes = kept
	l.removed = 0
}

// Get returns the live (not pending-deletion) resource with the URN, or nil.
func (l *Live) Get(urn resource.URN) *Resource {
	if n, ok := l.byURN[urn]; ok {
		return n.res
	}
	return nil
}

// Lookup returns the resource with the key, or nil.
func (l *Live) Lookup(k Key) *Resource {
	if n, ok := l.byKey[k]; ok {
		return n.res
	}
	return nil
}

// Each calls f for every resource held, live or pending deletion, in the
// order they were added.
func (l *Live) Each(f func(*Resource)) {
	for _, n := range l.nodes {
		if !n.removed {
			f(n.res)
		}
	}
}

// Change applies a finished change (op, old, nu) as an End or Write entry
// with those fields would: the engine keeps its view of the state by the
// same rules as the journal's replay.
func (l *Live) Change(op Op, old, nu *Resource) error {
	e := Entry{Kind: Write, Op: op, Old: old, New: nu}
	return l.effect(&e)
}

// Apply applies one journal entry. An entry that names a resource the state
// does not hold is an error and changes nothing.
func (l *Live) Apply(e *Entry) error {
	switch e.Kind {
	case Begin:
		if _, dup := l.inflight[e.Step]; dup {
			return fmt.Errorf("journal entry %d: step %d began twice", e.Seq, e.Step)
		}
		l.inflight[e.Step] = e
		l.inflightOrder = append(l.inflightOrder, e.Step)
		return nil
	case End, Fail:
		if _, ok := l.inflight[e.Step]; !ok {
			return fmt.Errorf("journal entry %d: step %d ended but never began", e.Seq, e.Step)
		}
		if e.Kind == End {
			// Apply the effect first: if it is rejected, the step stays in
			// flight, as the entry must change nothing.
			if err := l.effect(e); err != nil {
				return err
			}
		}
		delete(l.inflight, e.Step)
		return nil
	case Write:
	default:
		return fmt.Errorf("journal entry %d: unknown kind %d", e.Seq, e.Kind)
	}
	return l.effect(e)
}

// effect applies what a finished step did; see Op.
func (l *Live) effect(e *Entry) error {
	switch e.Op {
	case OpCreate, OpImport:
		return l.insert(e)
	case OpReplace:
		if err := l.canReplace(e); err != nil {
			return err
		}
		old := e.Old.Clone()
		old.Delete = true
		if err := l.replace(e.Old.Key(), old); err != nil {
			return err
		}
		return l.insert(e)
	case OpUpdate, OpSame:
		if err := l.needOld(e); err != nil {
			return err
		}
		if e.New == nil {
			return fmt.Errorf("journal entry %d: %s of %s has no new resource", e.Seq, e.Op, e.Old.URN)
		}
		return l.replace(e.Old.Key(), e.New)
	case OpRead:
		if err := l.needOld(e); err != nil {
			return err
		}
		if e.New == nil {
			return l.remove(e.Old.Key())
		}
		return l.replace(e.Old.Key(), e.New)
	case OpDelete, OpRemove:
		if err := l.needOld(e); err != nil {
			return err
		}
		if e.Op == OpDelete && e.New != nil {
			return l.keepDeleted(e)
		}
		return l.remove(e.Old.Key())
	case OpOutputs:
		l.outputs, l.outputTypes = e.Outputs, e.OutputTypes
		return nil
	case OpResolve:
		return l.resolve(e)
	case OpRename:
		return l.rename(e)
	}
	return fmt.Errorf("journal entry %d: unknown operation %q", e.Seq, e.Op)
}

// canReplace checks a replace before it changes anything: Old is held and
// New fits once Old is marked for deletion.
func (l *Live) canReplace(e *Entry) error {
	if err := l.needOld(e); err != nil {
		return err
	}
	k := e.Old.Key()
	oldNode, ok := l.byKey[k]
	if !ok {
		return fmt.Errorf("state has no resource %s (id %q, pending delete %v)", k.URN, k.ID, k.Delete)
	}
	if e.New == nil {
		return fmt.Errorf("journal entry %d: %s has no new resource", e.Seq, e.Op)
	}
	n, dup := l.byKey[e.New.Key()]
	dup = dup && n != oldNode
	if u := l.byURN[e.New.URN]; !e.New.Delete && u != nil && u != oldNode {
		dup = true
	}
	if dup {
		return fmt.Errorf("journal entry %d: %s of %s: the state already holds it", e.Seq, e.Op, e.New.URN)
	}
	return nil
}

// keepDeleted applies a delete that keeps its record: New is Old marked
// Missing (same URN and ID), put in Old's place, so that what refers to it
// stays whole until its replacement is created (a Terraform-style
// delete-first replacement).
func (l *Live) keepDeleted(e *Entry) error {
	if !e.New.Missing || e.New.URN != e.Old.URN || e.New.ID != e.Old.ID || e.New.Delete != e.Old.Delete {
		return fmt.Errorf("journal entry %d: delete of %s keeps a record that is not the deleted resource marked missing", e.Seq, e.Old.URN)
	}
	return l.replace(e.Old.Key(), e.New)
}

func (l *Live) needOld(e *Entry) error {
	if e.Old == nil {
		return fmt.Errorf("journal entry %d: %s names no resource", e.Seq, e.Op)
	}
	return nil
}

func (l *Live) insert(e *Entry) error {
	if e.New == nil {
		return fmt.Errorf("journal entry %d: %s has no new resource", e.Seq, e.Op)
	}
	_, dup := l.byKey[e.New.Key()]
	if !e.New.Delete && l.byURN[e.New.URN] != nil {
		dup = true
	}
	if dup {
		return fmt.Errorf("journal entry %d: %s of %s: the state already holds it", e.Seq, e.Op, e.New.URN)
	}
	l.add(e.New)
	return nil
}

// rename moves a live resource to a new URN and points every reference to
// its old URN at the new one. It costs O(resources); renames are rare.
func (l *Live) rename(e *Entry) error {
	if err := l.needOld(e); err != nil {
		return err
	}
	if e.New == nil || e.Old.Delete || e.New.Delete {
		return fmt.Errorf("journal entry %d: rename of %s needs a live old and new resource", e.Seq, e.Old.URN)
	}
	if l.byURN[e.New.URN] != nil {
		return fmt.Errorf("journal entry %d: rename of %s: the state already holds %s", e.Seq, e.Old.URN, e.New.URN)
	}
	if err := l.replace(e.Old.Key(), e.New); err != nil {
		return err
	}
	for _, n := range l.nodes {
		if !n.removed && n.res != e.New {
			if r := n.res.Rereferenced(e.Old.URN, e.New.URN); r != n.res {
				l.unindex(n)
				n.res = r
				l.index(n)
			}
		}
	}
	return nil
}

func (l *Live) resolve(e *Entry) error {
	if e.New == nil {
		return fmt.Errorf("journal entry %d: resolve names no resource", e.Seq)
	}
	kept := l.pending[:0]
	found := false
	for _, p := range l.pending {
		if p.Resource.URN == e.New.URN {
			found = true
			continue
		}
		kept = append(kept, p)
	}
	l.pending = kept
	if !found {
		return fmt.Errorf("journal entry %d: no pending operation on %s", e.Seq, e.New.URN)
	}
	return nil
}

// Pending returns the pending operations: those recorded in the snapshot
// plus the steps in flight now (which, after a crash, never finished).
func (l *Live) Pending() []PendingOperation {
	out := append([]PendingOperation(nil), l.pending...)
	for _, step := range l.inflightOrder {
		e, ok := l.inflight[step]
		if !ok {
			continue
		}
		if p, ok := pendingOf(e); ok {
			out = append(out, p)
		}
	}
	return out
}

// pendingOf turns an unfinished Begin into a pending operation. Reads and
// imports change nothing in the world, so an unfinished one is not pending.
func pendingOf(e *Entry) (PendingOperation, bool) {
	r := e.New
	if r == nil {
		r = e.Old
	}
	switch e.Op {
	case OpCreate, OpReplace, OpUpdate, OpDelete:
		return PendingOperation{Op: e.Op, Resource: r, Started: e.Time}, r != nil
	}
	return PendingOperation{}, false
}

// Snapshot returns the current state as a snapshot, resources sorted so that
// each comes after everything it refers to (keeping their order otherwise).
func (l *Live) Snapshot() *Snapshot {
	l.pruneInflightOrder()
	var rs []*Resource
	for _, n := range l.nodes {
		if !n.removed {
			rs = append(rs, n.res)
		}
	}
	return &Snapshot{Resources: SortByDependency(rs), Outputs: l.outputs, OutputTypes: l.outputTypes, Pending: l.Pending()}
}

func (l *Live) pruneInflightOrder() {
	kept := l.inflightOrder[:0]
	for _, s := range l.inflightOrder {
		if _, ok := l.inflight[s]; ok {
			kept = append(kept, s)
		}
	}
	l.inflightOrder = kept
}

// Len returns the number of resources held.
func (l *Live) Len() int { return len(l.byKey) }
