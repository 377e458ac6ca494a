package state

import (
	"maps"
	"slices"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// referrers maps a URN to the recorded resources that refer to it, so that
// finding a resource's dependents costs what they number, not the stack.
// Live builds it on first use (a delete-before-replace) and keeps it up to
// date from then on; a nil map is an index not built yet.
type referrers map[resource.URN]map[Key]*Resource

func (rs referrers) add(r *Resource) {
	if rs == nil {
		return
	}
	for _, u := range r.References() {
		m := rs[u]
		if m == nil {
			m = map[Key]*Resource{}
			rs[u] = m
		}
		m[r.Key()] = r
	}
}

func (rs referrers) remove(r *Resource) {
	if rs == nil {
		return
	}
	for _, u := range r.References() {
		if m := rs[u]; m != nil && m[r.Key()] == r {
			delete(m, r.Key())
		}
	}
}

// Dependents returns the resources held that depend on urn, transitively,
// ordered so that each comes before what it depends on. A live resource's
// references name live resources, so it is caught only through live ones;
// a resource pending deletion may have been made when an older resource
// held a URN, so it is caught through either. The live resource urn itself
// is not included.
func (l *Live) Dependents(urn resource.URN) []*Resource {
	if l.referrers == nil {
		l.referrers = referrers{}
		l.Each(l.referrers.add)
	}
	type via struct {
		urn  resource.URN
		dead bool // reached through a resource pending deletion
	}
	queue := []via{{urn: urn}}
	seen := map[Key]bool{}
	var found []*Resource
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		for k, r := range l.referrersOf(at.urn) {
			if seen[k] || (at.dead && !r.Delete) || (!r.Delete && r.URN == urn) {
				continue
			}
			seen[k] = true
			found = append(found, r)
			queue = append(queue, via{urn: r.URN, dead: r.Delete})
		}
	}
	sorted := SortByDependency(found)
	slices.Reverse(sorted)
	return sorted
}

// referrersOf returns the resources indexed as referring to urn, directly
// or through its dependency group.
func (l *Live) referrersOf(urn resource.URN) map[Key]*Resource {
	g, ok := GroupOf(urn)
	if !ok || len(l.referrers[g]) == 0 {
		return l.referrers[urn]
	}
	out := maps.Clone(l.referrers[g])
	maps.Copy(out, l.referrers[urn])
	return out
}
