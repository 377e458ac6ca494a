package state

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func names(rs []*Resource) []string {
	out := []string{}
	for _, r := range rs {
		n := r.URN.Name()
		if r.Delete {
			n += "(delete)"
		}
		out = append(out, n)
	}
	return out
}

// TestLiveDependents checks the transitive dependents (compared as a set;
// b and the old b are not ordered), that each comes before what it depends
// on, and that the index follows changes made after it was built.
func TestLiveDependents(t *testing.T) {
	a := thing("a", "a-1")
	b := thing("b", "b-1", urn("a"))
	c := thing("c", "c-1", urn("b"))
	oldB := deleted(thing("b", "b-0", urn("a")))
	tests := map[string]struct {
		changes []*Entry // applied after the index is built
		of      string
		want    []string
	}{
		"chain":                         {of: "a", want: []string{"b", "b(delete)", "c"}},
		"middle":                        {of: "b", want: []string{"c"}},
		"leaf":                          {of: "c", want: []string{}},
		"after a delete":                {changes: []*Entry{write(OpDelete, c, nil)}, of: "a", want: []string{"b", "b(delete)"}},
		"after a create":                {changes: []*Entry{write(OpCreate, nil, thing("d", "d-1", urn("c")))}, of: "b", want: []string{"c", "d"}},
		"after a dependency is dropped": {changes: []*Entry{write(OpUpdate, b, thing("b", "b-1"))}, of: "a", want: []string{"b(delete)"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			l := NewLive(&Snapshot{Resources: []*Resource{prov("test"), a, oldB, b, c}})
			l.Dependents(urn("a")) // builds the index
			for _, e := range tt.changes {
				if err := l.Change(e.Op, e.Old, e.New); err != nil {
					t.Fatal(err)
				}
			}
			got := l.Dependents(urn(tt.of))
			for i, r := range got {
				for _, later := range got[i+1:] {
					if slices.Contains(later.References(), r.URN) && !later.Delete {
						t.Errorf("%s comes before %s, which depends on it", r.URN.Name(), later.URN.Name())
					}
				}
			}
			sorted := names(got)
			slices.Sort(sorted)
			if diff := cmp.Diff(tt.want, sorted); diff != "" {
				t.Errorf("dependents of %s (-want +got):\n%s", tt.of, diff)
			}
		})
	}
}
