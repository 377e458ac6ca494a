package engine

import (
	"slices"
	"sync"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// deleteStep generates the step that deletes one recorded resource:
// through its provider for a custom resource, from state alone for a
// component or provider resource, one with retainOnDelete, an external
// (read) one, or one deleted with a resource this operation deletes (see
// deletedwith.go), and not at all in the world for a record whose ID a
// live resource holds that is the same object (see sameobject.go) or one
// already missing.
func (d *deployment) deleteStep(r *state.Resource, shown StepOp) step {
	switch {
	case r.Missing || r.External && r.Delete:
		return removeStep{r}
	case r.External:
		return dropStep{r, OpDiscard} // read, never plinth's: forgotten
	case r.Protect:
		return refuseStep{op: shown, old: r, err: &ProtectedError{URN: r.URN, Action: "delete"}}
	}
	holder, err := d.sameObjectHolder(r)
	if err != nil {
		return refuseStep{op: shown, old: r, err: err}
	}
	if holder != nil {
		return discardStep{r: r, holder: holder, shown: shown}
	}
	if r.RetainOnDelete || !r.Custom || isProvider(r.Type) {
		return dropStep{r, shown}
	}
	if d.forget != nil && shown == OpDelete && d.forget(r.URN) {
		kept := *r // forgotten: removed from the state as retainOnDelete is
		kept.RetainOnDelete = true
		return dropStep{&kept, OpDiscard}
	}
	if d.deletedWithOther(r) {
		return dropStep{r, shown}
	}
	return deleteStep{r: r, shown: shown}
}

// deleteAll deletes the given resources in reverse dependency order on the
// worker pool: a resource is deleted once every resource in the set that
// refers to it is gone, so independent deletes run in parallel. If a delete
// fails, what depends on it is kept.
func (d *deployment) deleteAll(doomed []*state.Resource, shown func(*state.Resource) StepOp) {
	d.deleting(doomed)
	g := newDeleteGraph(doomed)
	var wg sync.WaitGroup
	var run func(i int)
	run = func(i int) {
		wg.Add(1)
		d.pool.submit(func(sl *slot) {
			defer wg.Done()
			if d.ctx.Err() != nil {
				return
			}
			r := g.nodes[i]
			if _, err := d.x.runIn(sl, d.deleteStep(r, shown(r))); err != nil {
				d.fail(stepError(r.URN, err))
				return
			}
			for _, j := range g.release(i) {
				run(j)
			}
		})
	}
	for _, i := range g.ready() {
		run(i)
	}
	wg.Wait()
}

// deleteGraph orders deletes: waiting[i] counts the resources in the set
// that refer to node i and are not yet deleted.
type deleteGraph struct {
	mu      sync.Mutex
	nodes   []*state.Resource
	waiting []int
	refs    [][]int // refs[i]: the nodes that node i refers to
}

func newDeleteGraph(rs []*state.Resource) *deleteGraph {
	g := &deleteGraph{nodes: rs, waiting: make([]int, len(rs)), refs: make([][]int, len(rs))}
	byURN := map[resource.URN][]int{}
	for i, r := range rs {
		byURN[r.URN] = append(byURN[r.URN], i)
	}
	groups := map[resource.URN]int{} // dependency group -> its node, made on first reference
	for i, r := range rs {
		for _, u := range r.References() {
			for _, j := range byURN[u] {
				g.edge(i, j)
			}
			if slices.Contains(r.DependencyGroups, u) {
				g.edge(i, g.groupNode(groups, u, rs))
			}
		}
	}
	return g
}

// edge records that node i refers to node j (j waits for i).
func (g *deleteGraph) edge(i, j int) {
	if j != i {
		g.refs[i] = append(g.refs[i], j)
		g.waiting[j]++
	}
}

// groupNode returns the node of a dependency group, adding it on first
// use: it waits for the group's referrers and its members wait for it, so
// n referrers of a group of n cost 2n edges, not n×n.
func (g *deleteGraph) groupNode(groups map[resource.URN]int, u resource.URN, rs []*state.Resource) int {
	if j, ok := groups[u]; ok {
		return j
	}
	j := len(g.waiting)
	groups[u] = j
	g.waiting = append(g.waiting, 0)
	g.refs = append(g.refs, nil)
	for m, r := range rs {
		if gu, ok := state.GroupOf(r.URN); ok && gu == u {
			g.edge(j, m)
		}
	}
	return j
}

// ready returns the resource nodes nothing waits on.
func (g *deleteGraph) ready() []int {
	var out []int
	for i, w := range g.waiting[:len(g.nodes)] {
		if w == 0 {
			out = append(out, i)
		}
	}
	return out
}

// release records node i as deleted and returns the resource nodes that
// became ready; a group node that becomes ready releases its members.
func (g *deleteGraph) release(i int) []int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.releaseLocked(i)
}

func (g *deleteGraph) releaseLocked(i int) []int {
	var out []int
	for _, j := range g.refs[i] {
		if g.waiting[j]--; g.waiting[j] != 0 {
			continue
		}
		if j >= len(g.nodes) {
			out = append(out, g.releaseLocked(j)...)
		} else {
			out = append(out, j)
		}
	}
	return out
}

// condemned returns what an update deletes once the program has finished:
// live resources the program did not register, and every resource pending
// deletion, within the operation's targets.
func (d *deployment) condemned() []*state.Resource {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []*state.Resource
	d.recs.each(func(r *state.Resource) {
		if (r.Delete || d.registered[r.URN] == nil) && d.targets.has(r.URN) {
			out = append(out, r)
		}
	})
	return state.SortByDependency(out)
}

// deleteShown names the delete of a condemned resource: the old half of a
// replacement, or a plain delete.
func deleteShown(r *state.Resource) StepOp {
	if r.Delete {
		return OpDeleteReplaced
	}
	return OpDelete
}
