package state

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestRenameRepointsReferences: a rename moves a resource to its new URN
// and every reference to the old URN follows, so the state verifies; a
// rename onto a URN the state holds is refused and changes nothing.
func TestRenameRepointsReferences(t *testing.T) {
	p, a := prov("test"), thing("a", "a-1")
	b := thing("b", "b-1", a.URN)
	b.Parent = a.URN
	b.PropertyDependencies = map[string][]resource.URN{"x": {a.URN}}
	l := NewLive(&Snapshot{Resources: []*Resource{p, a, b}})
	renamed := a.Clone()
	renamed.URN = urn("z")
	if err := l.Apply(&Entry{Seq: 1, Kind: Write, Op: OpRename, Old: a, New: renamed}); err != nil {
		t.Fatal(err)
	}
	s := l.Snapshot()
	if err := s.Verify(); err != nil {
		t.Fatalf("state after a rename fails Verify: %v", err)
	}
	got := s.Find(urn("b"))
	want := []resource.URN{urn("z")}
	if diff := cmp.Diff([]any{want, urn("z"), want}, []any{got.Dependencies, got.Parent, got.PropertyDependencies["x"]}); diff != "" {
		t.Errorf("b's references (-want +got):\n%s", diff)
	}
	if b.Dependencies[0] != a.URN {
		t.Errorf("the rename modified a resource the state held instead of replacing it")
	}
	if err := l.Apply(&Entry{Seq: 2, Kind: Write, Op: OpRename, Old: s.Find(urn("b")), New: renamed}); err == nil {
		t.Errorf("a rename onto a URN the state holds was accepted")
	}
}
