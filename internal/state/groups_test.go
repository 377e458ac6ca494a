package state

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestGroupOf(t *testing.T) {
	tests := map[string]struct {
		name, want string
	}{
		"count":               {`random_pet.a[3]`, `random_pet.a`},
		"for_each":            {`random_pet.a["x"]`, `random_pet.a`},
		"bracket in key":      {`random_pet.a["x[1]"]`, `random_pet.a`},
		"quote bracket key":   {`random_pet.a["x[\"y"]`, `random_pet.a`},
		"in a counted module": {`module.m[0].random_pet.a[1]`, `module.m[0].random_pet.a`},
		"module instance":     {`module.m[0].random_pet.a`, ""},
		"no key":              {`random_pet.a`, ""},
		"not a key":           {`a[x]`, ""},
		"only a key":          {`[1]`, ""},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			g, ok := GroupOf(urn(tt.name))
			got := ""
			if ok {
				got = string(g)
			}
			want := ""
			if tt.want != "" {
				want = string(urn(tt.want))
			}
			if got != want {
				t.Errorf("GroupOf(%s) = %q, want %q", tt.name, got, want)
			}
		})
	}
}

// grouped returns counted instances a[0..n) and b[0..n), each b depending
// on the group a.
func grouped(n int) (as, bs []*Resource) {
	for i := range n {
		as = append(as, thing("a["+itoa(i)+"]", "a"))
		b := thing("b["+itoa(i)+"]", "b")
		b.DependencyGroups = []resource.URN{urn("a")}
		bs = append(bs, b)
	}
	return as, bs
}

func itoa(i int) string { return string(rune('0' + i)) }

// TestDependencyGroups: a dependency group orders, verifies, finds
// dependents and survives the codec as the instances it stands for would.
func TestDependencyGroups(t *testing.T) {
	as, bs := grouped(3)
	rs := append(append([]*Resource{prov("test")}, bs[0], bs[1], bs[2]), as...)
	sorted := SortByDependency(rs)
	if diff := cmp.Diff([]string{"default", "a[0]", "a[1]", "a[2]", "b[0]", "b[1]", "b[2]"}, names(sorted)); diff != "" {
		t.Errorf("sorted (-want +got):\n%s", diff)
	}
	if err := (&Snapshot{Resources: rs}).Verify(); err == nil {
		t.Errorf("Verify accepted b before the instances of a")
	}
	snap := &Snapshot{Resources: sorted}
	if err := snap.Verify(); err != nil {
		t.Errorf("Verify: %v", err)
	}
	late := append(slices.Clone(sorted[:3]), append(slices.Clone(sorted[4:]), sorted[3])...)
	if err := (&Snapshot{Resources: late}).Verify(); err == nil {
		t.Errorf("Verify accepted a[2] after b, which depends on every instance of a")
	}
	got := names(NewLive(snap).Dependents(urn("a[1]")))
	slices.Sort(got)
	if diff := cmp.Diff([]string{"b[0]", "b[1]", "b[2]"}, got); diff != "" {
		t.Errorf("dependents of a[1] (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]resource.URN{urn("a[0]"), urn("a[1]"), urn("a[2]")}, ExpandGroups(bs[0], sorted)); diff != "" {
		t.Errorf("ExpandGroups (-want +got):\n%s", diff)
	}
	data, err := EncodeSnapshot(snap, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := DecodeSnapshot(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(bs[2].DependencyGroups, back.Resources[6].DependencyGroups); diff != "" {
		t.Errorf("codec round trip (-want +got):\n%s", diff)
	}
}
