package engine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestDeleteGraphGroups: instances that depend on a dependency group are
// deleted before every member of the group, through one group node (2n
// edges for n referrers of n members, not n×n).
func TestDeleteGraphGroups(t *testing.T) {
	const n = 10
	u := func(name string) resource.URN {
		return resource.NewURN("dev", "p", "", "random:index:random_pet", name)
	}
	var rs []*state.Resource
	for i := range n {
		rs = append(rs, &state.Resource{URN: u(fmt.Sprintf("random_pet.a[%d]", i))})
		rs = append(rs, &state.Resource{URN: u(fmt.Sprintf("random_pet.b[%d]", i)), DependencyGroups: []resource.URN{u("random_pet.a")}})
	}
	g := newDeleteGraph(rs)
	edges := 0
	for _, r := range g.refs {
		edges += len(r)
	}
	if edges > 2*n {
		t.Errorf("%d edges, want at most %d", edges, 2*n)
	}
	names := func(is []int) []string {
		var out []string
		for _, i := range is {
			out = append(out, rs[i].URN.Name())
		}
		slices.Sort(out)
		return out
	}
	ready := g.ready()
	var bs []string
	for i := range n {
		bs = append(bs, fmt.Sprintf("random_pet.b[%d]", i))
	}
	slices.Sort(bs)
	if diff := cmp.Diff(bs, names(ready)); diff != "" {
		t.Fatalf("ready first (-want +got):\n%s", diff)
	}
	var freed []int
	for _, i := range ready {
		if len(freed) > 0 {
			t.Fatalf("members freed before every referrer was deleted")
		}
		freed = append(freed, g.release(i)...)
	}
	if len(freed) != n {
		t.Errorf("%d members freed after every referrer, want %d", len(freed), n)
	}
}
