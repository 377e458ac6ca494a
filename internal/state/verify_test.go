package state

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestVerify(t *testing.T) {
	p := prov("test")
	a, b := thing("a", "a-1"), thing("b", "b-1", urn("a"))
	comp := &Resource{URN: urn("comp"), Type: "my:index:Comp"}
	child := thing("child", "c-1")
	child.Parent = comp.URN
	tests := map[string]struct {
		s    *Snapshot
		want string // "" for a valid snapshot
	}{
		"valid": {s: &Snapshot{Resources: []*Resource{p, comp, child, a, b}}},
		"pending deletion shares a URN": {
			s: &Snapshot{Resources: []*Resource{p, deleted(thing("a", "a-0")), a, b}},
		},
		"pending operation": {
			s: &Snapshot{Resources: []*Resource{p}, Pending: []PendingOperation{{Op: OpCreate, Resource: thing("new", "")}}},
		},
		"invalid URN": {
			s:    &Snapshot{Resources: []*Resource{p, {URN: "not-a-urn", Type: "x"}}},
			want: "resource 1:",
		},
		"components of any type Pulumi accepts": {
			s: &Snapshot{Resources: []*Resource{
				{URN: resource.NewURN("dev", "proj", "", "component", "c"), Type: "component"},
				{URN: resource.NewURN("dev", "proj", "", "my:module:ComponentSixParent-v10", "c"), Type: "my:module:ComponentSixParent-v10"},
			}},
		},
		"custom type without a package": {
			s:    &Snapshot{Resources: []*Resource{{URN: resource.NewURN("dev", "proj", "", "component", "c"), Type: "component", Custom: true, ID: "c-1"}}},
			want: "names no package",
		},
		"pending operation with a type the loader refuses": {
			s:    &Snapshot{Pending: []PendingOperation{{Op: OpCreate, Resource: &Resource{URN: urn("new"), Type: "a:b$c", Custom: true}}}},
			want: `holds "$"`,
		},
		"duplicate URN": {
			s:    &Snapshot{Resources: []*Resource{p, a, thing("a", "a-2")}},
			want: "appears twice",
		},
		"custom without ID": {
			s:    &Snapshot{Resources: []*Resource{p, thing("a", "")}},
			want: "has no ID",
		},
		"parent after child": {
			s:    &Snapshot{Resources: []*Resource{p, child, comp}},
			want: "parent " + string(comp.URN) + " does not appear before it",
		},
		"invalid provider reference": {
			s:    &Snapshot{Resources: []*Resource{p, withProvider(a, "nonsense")}},
			want: "invalid provider reference",
		},
		"provider with another ID": {
			s:    &Snapshot{Resources: []*Resource{p, withProvider(a, ProviderRef(p.URN, "p-2"))}},
			want: "does not appear before it",
		},
		"provider after resource": {
			s:    &Snapshot{Resources: []*Resource{a, p}},
			want: "provider " + ProviderRef(p.URN, "p-1") + " does not appear before it",
		},
		"custom without provider": {
			s:    &Snapshot{Resources: []*Resource{p, withProvider(a, "")}},
			want: "has no provider",
		},
		"dependency after dependent": {
			s:    &Snapshot{Resources: []*Resource{p, b, a}},
			want: "dependency " + string(a.URN) + " does not appear before it",
		},
		"property dependency missing": {
			s:    &Snapshot{Resources: []*Resource{p, withPropertyDep(a, "name", urn("ghost"))}},
			want: "property name depends on " + string(urn("ghost")),
		},
		"pending names no resource": {
			s:    &Snapshot{Resources: []*Resource{p}, Pending: []PendingOperation{{Op: OpDelete}}},
			want: "a pending delete names no resource",
		},
		"pending with invalid URN": {
			s:    &Snapshot{Resources: []*Resource{p}, Pending: []PendingOperation{{Op: OpUpdate, Resource: &Resource{URN: "bad"}}}},
			want: `invalid URN "bad"`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := tc.s.Verify()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Verify = %v, want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Verify = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func withProvider(r *Resource, ref string) *Resource {
	c := r.Clone()
	c.Provider = ref
	return c
}

func withPropertyDep(r *Resource, prop string, u resource.URN) *Resource {
	c := r.Clone()
	c.PropertyDependencies = map[string][]resource.URN{prop: {u}}
	return c
}

// SortByDependency repairs an order that Verify rejects.
func TestSortByDependencyRepairsOrder(t *testing.T) {
	p := prov("test")
	a, b := thing("a", "a-1"), thing("b", "b-1", urn("a"))
	s := &Snapshot{Resources: SortByDependency([]*Resource{b, a, p})}
	if err := s.Verify(); err != nil {
		t.Fatalf("sorted snapshot fails Verify: %v", err)
	}
}

// TestVerifyJudgesEachResourceOfAType: Verify validates each distinct
// type once, yet reports every resource whose type is refused, under its
// own URN, and judges a type as each resource's kind needs (a component
// may have a type a custom resource may not).
func TestVerifyJudgesEachResourceOfAType(t *testing.T) {
	compURN := func(name string) resource.URN { return resource.NewURN("dev", "proj", "", "component", name) }
	rs := []*Resource{
		{URN: compURN("c"), Type: "component"},
		{URN: compURN("x"), Type: "component", Custom: true, ID: "x-1"},
		{URN: compURN("y"), Type: "component", Custom: true, ID: "y-1"},
		{URN: compURN("d"), Type: "component"},
	}
	var want []string
	for i, r := range rs {
		if err := CheckIdentity(r.URN, r.Type, r.Custom); err != nil {
			want = append(want, fmt.Sprintf("resource %d: %v", i, err))
		}
	}
	if len(want) != 2 {
		t.Fatalf("CheckIdentity refused %d of the resources, want the 2 custom ones: %q", len(want), want)
	}
	err := (&Snapshot{Resources: rs}).Verify()
	if err == nil {
		t.Fatal("Verify accepted custom resources of type component")
	}
	if diff := cmp.Diff(strings.Join(want, "\n"), err.Error()); diff != "" {
		t.Errorf("Verify (-each resource checked alone +got):\n%s", diff)
	}
}
