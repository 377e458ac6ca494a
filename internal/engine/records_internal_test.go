package engine

import (
	"testing"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestRecordsSharedIDs: the holders of an ID a provider returned in this
// operation, kept in a slice: a second record under one URN replaces the
// first, sharedID finds another live holder and claims nothing,
// claimSharedID stops the claimer's hold, and a holder that is no longer
// live does not count.
func TestRecordsSharedIDs(t *testing.T) {
	thing := func(name string) *state.Resource {
		return &state.Resource{URN: resource.NewURN("dev", "p", "", "pkg:index:Thing", name), Type: "pkg:index:Thing", Custom: true, ID: "same"}
	}
	rs := newRecords(nil)
	a, b := thing("a"), thing("b")
	rs.apply(state.OpCreate, nil, a)
	rs.apply(state.OpCreate, nil, b)
	if got := rs.sharedID(a); got != b {
		t.Fatalf("sharedID(a) = %v, want b", got)
	}
	if got := rs.sharedID(b); got != a {
		t.Fatalf("sharedID(b) = %v, want a (sharedID claims nothing)", got)
	}
	if got := rs.claimSharedID(a); got != b {
		t.Fatalf("claimSharedID(a) = %v, want b", got)
	}
	if got := rs.sharedID(b); got != nil {
		t.Errorf("after a claimed, sharedID(b) = %v, want none: a's hold is stopped", got)
	}
	a2, a3 := thing("a"), thing("a")
	rs.apply(state.OpReplace, a, a2)
	rs.apply(state.OpReplace, a2, a3)
	if n := len(rs.ids[physical{"pkg:index:Thing", "same"}]); n != 2 {
		t.Errorf("holders of the ID = %d, want 2 (b, and the latest record of a)", n)
	}
	if got := rs.sharedID(b); got != a3 {
		t.Errorf("sharedID(b) = %v, want the live record of a, not the replaced one", got)
	}
}
