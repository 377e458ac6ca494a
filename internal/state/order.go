package state

import (
	"container/heap"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// SortByDependency orders resources so that each comes after every resource
// it refers to; a slice already in dependency order comes back unchanged
// (Kahn's algorithm taking the earliest ready resource first, so
// O((n + references) log n)). A
// reference resolves to the live resource with that URN, or to a pending
// deletion if no live one exists. References to URNs not in rs are ignored
// here (Verify reports them); resources caught in a cycle keep their order
// at the end.
//
// A dependency group (Resource.DependencyGroups) is a node of its own
// between its members and the resources that depend on it, so that n
// instances depending on a group of n cost 2n edges, not n×n.
func SortByDependency(rs []*Resource) []*Resource {
	g := dependencyGraph(rs)
	out := make([]*Resource, 0, len(rs))
	placed := make([]bool, len(rs))
	ready := &indexHeap{}
	for i := range rs {
		if g.indegree[i] == 0 {
			*ready = append(*ready, i) // ascending, so already a heap
		}
	}
	var release func(int)
	release = func(i int) {
		for _, d := range g.dependents[i] {
			if g.indegree[d]--; g.indegree[d] != 0 {
				continue
			}
			if d >= len(rs) { // a group node: its dependents are released at once
				release(d)
			} else {
				heap.Push(ready, d)
			}
		}
	}
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		out = append(out, rs[i])
		placed[i] = true
		release(i)
	}
	for i, r := range rs {
		if !placed[i] {
			out = append(out, r)
		}
	}
	return out
}

// depGraph is the graph SortByDependency walks: nodes 0..len(rs)-1 are the
// resources, the rest dependency groups.
type depGraph struct {
	indegree   []int
	dependents [][]int
}

func dependencyGraph(rs []*Resource) depGraph {
	target := targetsByURN(rs)
	groups := map[resource.URN]int{}
	g := depGraph{indegree: make([]int, len(rs)), dependents: make([][]int, len(rs))}
	node := func(u resource.URN) (int, bool) {
		if j, ok := target[u]; ok {
			return j, true
		}
		j, ok := groups[u]
		return j, ok
	}
	for i, r := range rs { // a group node after each of its members
		if gu, ok := GroupOf(r.URN); ok && !r.Delete {
			j, seen := groups[gu]
			if !seen {
				j = len(g.indegree)
				groups[gu] = j
				g.indegree = append(g.indegree, 0)
				g.dependents = append(g.dependents, nil)
			}
			g.indegree[j]++
			g.dependents[i] = append(g.dependents[i], j)
		}
	}
	for i, r := range rs {
		own, _ := GroupOf(r.URN)
		for _, u := range r.References() {
			if j, ok := node(u); ok && j != i && u != own {
				g.indegree[i]++
				g.dependents[j] = append(g.dependents[j], i)
			}
		}
	}
	return g
}

func targetsByURN(rs []*Resource) map[resource.URN]int {
	target := make(map[resource.URN]int, len(rs))
	for i, r := range rs {
		if j, ok := target[r.URN]; ok && !rs[j].Delete {
			continue
		}
		target[r.URN] = i
	}
	return target
}

// indexHeap is a min-heap of positions.
type indexHeap []int

func (h indexHeap) Len() int           { return len(h) }
func (h indexHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h indexHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *indexHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *indexHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
