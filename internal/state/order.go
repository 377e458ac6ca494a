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
func SortByDependency(rs []*Resource) []*Resource {
	target := targetsByURN(rs)
	indegree := make([]int, len(rs))
	dependents := make([][]int, len(rs))
	for i, r := range rs {
		for _, u := range r.References() {
			if j, ok := target[u]; ok && j != i {
				indegree[i]++
				dependents[j] = append(dependents[j], i)
			}
		}
	}
	out := make([]*Resource, 0, len(rs))
	placed := make([]bool, len(rs))
	ready := &indexHeap{}
	for i := range rs {
		if indegree[i] == 0 {
			*ready = append(*ready, i) // ascending, so already a heap
		}
	}
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		out = append(out, rs[i])
		placed[i] = true
		for _, d := range dependents[i] {
			if indegree[d]--; indegree[d] == 0 {
				heap.Push(ready, d)
			}
		}
	}
	for i, r := range rs {
		if !placed[i] {
			out = append(out, r)
		}
	}
	return out
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
