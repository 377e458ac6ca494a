package state

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// liveSummary lists resources as name=id (marking pending deletions),
// pending operations as op:name, and the stack outputs.
func liveSummary(l *Live) []string {
	s := l.Snapshot()
	out := urns(s)
	for _, p := range s.Pending {
		out = append(out, "pending "+string(p.Op)+":"+p.Resource.URN.Name())
	}
	for _, k := range s.Outputs.Keys() {
		out = append(out, "output "+k+"="+s.Outputs[k].String())
	}
	return out
}

func deleted(r *Resource) *Resource {
	c := r.Clone()
	c.Delete = true
	return c
}

func TestLiveApply(t *testing.T) {
	p, a, b := prov("test"), thing("a", "a-1"), thing("b", "b-1")
	a2 := thing("a", "a-2")
	base := &Snapshot{Resources: []*Resource{p, a}, Pending: []PendingOperation{{Op: OpCreate, Resource: thing("lost", "")}}}
	tests := map[string]struct {
		entries []*Entry
		want    []string
	}{
		"create": {
			entries: []*Entry{begin(1, OpCreate, nil, thing("b", "")), end(1, OpCreate, nil, b)},
			want:    []string{"default/p-1", "a/a-1", "b/b-1", "pending create:lost"},
		},
		"create in flight": {
			entries: []*Entry{begin(1, OpCreate, nil, thing("b", ""))},
			want:    []string{"default/p-1", "a/a-1", "pending create:lost", "pending create:b"},
		},
		"create failed": {
			entries: []*Entry{begin(1, OpCreate, nil, thing("b", "")), {Step: 1, Kind: Fail, Op: OpCreate}},
			want:    []string{"default/p-1", "a/a-1", "pending create:lost"},
		},
		"replace": {
			entries: []*Entry{begin(1, OpReplace, a, thing("a", "")), end(1, OpReplace, a, a2)},
			want:    []string{"default/p-1", "a/a-1(delete)", "a/a-2", "pending create:lost"},
		},
		"replace then delete the old": {
			entries: []*Entry{write(OpReplace, a, a2), write(OpDelete, deleted(a), nil)},
			want:    []string{"default/p-1", "a/a-2", "pending create:lost"},
		},
		"update": {
			entries: []*Entry{begin(1, OpUpdate, a, a), end(1, OpUpdate, a, withOutput(a, "v", "2"))},
			want:    []string{"default/p-1", "a/a-1", "pending create:lost"},
		},
		"update in flight": {
			entries: []*Entry{begin(1, OpUpdate, a, a)},
			want:    []string{"default/p-1", "a/a-1", "pending create:lost", "pending update:a"},
		},
		"delete": {
			entries: []*Entry{begin(1, OpDelete, a, nil), end(1, OpDelete, a, nil)},
			want:    []string{"default/p-1", "pending create:lost"},
		},
		"delete keeping a missing record, then its replacement": {
			entries: []*Entry{
				begin(1, OpDelete, a, nil), end(1, OpDelete, a, markedMissing(a)),
				write(OpReplace, markedMissing(a), a2), write(OpRemove, deleted(markedMissing(a)), nil),
			},
			want: []string{"default/p-1", "a/a-2", "pending create:lost"},
		},
		"delete in flight": {
			entries: []*Entry{begin(1, OpDelete, a, nil)},
			want:    []string{"default/p-1", "a/a-1", "pending create:lost", "pending delete:a"},
		},
		"read refreshes": {
			entries: []*Entry{begin(1, OpRead, a, nil), end(1, OpRead, a, withOutput(a, "v", "3"))},
			want:    []string{"default/p-1", "a/a-1", "pending create:lost"},
		},
		"read finds it gone": {
			entries: []*Entry{begin(1, OpRead, a, nil), end(1, OpRead, a, nil)},
			want:    []string{"default/p-1", "pending create:lost"},
		},
		"read in flight is not pending": {
			entries: []*Entry{begin(1, OpRead, a, nil)},
			want:    []string{"default/p-1", "a/a-1", "pending create:lost"},
		},
		"import": {
			entries: []*Entry{begin(1, OpImport, nil, b), end(1, OpImport, nil, b)},
			want:    []string{"default/p-1", "a/a-1", "b/b-1", "pending create:lost"},
		},
		"import in flight is not pending": {
			entries: []*Entry{begin(1, OpImport, nil, b)},
			want:    []string{"default/p-1", "a/a-1", "pending create:lost"},
		},
		"same": {
			entries: []*Entry{write(OpSame, a, withOutput(a, "v", "4"))},
			want:    []string{"default/p-1", "a/a-1", "pending create:lost"},
		},
		"remove": {
			entries: []*Entry{write(OpRemove, a, nil)},
			want:    []string{"default/p-1", "pending create:lost"},
		},
		"outputs": {
			entries: []*Entry{{Kind: Write, Op: OpOutputs, Outputs: resource.Object{"url": resource.NewString("x")}}},
			want:    []string{"default/p-1", "a/a-1", "pending create:lost", `output url="x"`},
		},
		"resolve": {
			entries: []*Entry{write(OpResolve, nil, thing("lost", ""))},
			want:    []string{"default/p-1", "a/a-1"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			l := NewLive(base)
			for _, e := range tc.entries {
				if err := l.Apply(e); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(tc.want, liveSummary(l)); diff != "" {
				t.Errorf("state (-want +got):\n%s", diff)
			}
			if err := l.Snapshot().Verify(); err != nil {
				t.Errorf("state fails Verify: %v", err)
			}
		})
	}
}

func markedMissing(r *Resource) *Resource {
	c := r.Clone()
	c.Missing = true
	return c
}

// TestLiveDeleteKeepsMissing: a delete whose entry gives a New keeps the
// record, marked Missing, so a dependent's reference stays whole.
func TestLiveDeleteKeepsMissing(t *testing.T) {
	a := thing("a", "a-1")
	b := thing("b", "b-1")
	b.Dependencies = []resource.URN{a.URN}
	l := NewLive(&Snapshot{Resources: []*Resource{prov("test"), a, b}})
	for _, e := range []*Entry{begin(1, OpDelete, a, nil), end(1, OpDelete, a, markedMissing(a))} {
		if err := l.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if got := l.Get(a.URN); got == nil || !got.Missing {
		t.Fatalf("after the delete, %s is recorded as %+v; want it kept and marked missing", a.URN, got)
	}
	if err := l.Snapshot().Verify(); err != nil {
		t.Errorf("state fails Verify: %v", err)
	}
}

func withOutput(r *Resource, k, v string) *Resource {
	c := r.Clone()
	c.Outputs[k] = resource.NewString(v)
	return c
}

// TestLiveRejects checks that every invalid entry is an error that leaves
// the state as it was.
func TestLiveRejects(t *testing.T) {
	p, a, b := prov("test"), thing("a", "a-1"), thing("b", "b-1")
	tests := map[string]struct {
		setup []*Entry
		e     *Entry
		want  string
	}{
		"begin twice":                     {setup: []*Entry{begin(1, OpCreate, nil, b)}, e: begin(1, OpCreate, nil, b), want: "began twice"},
		"end without begin":               {e: end(1, OpCreate, nil, b), want: "never began"},
		"fail without begin":              {e: &Entry{Step: 1, Kind: Fail, Op: OpCreate}, want: "never began"},
		"unknown kind":                    {e: &Entry{Kind: 99, Op: OpCreate, New: b}, want: "unknown kind"},
		"unknown op":                      {e: &Entry{Kind: Write, Op: "explode"}, want: "unknown operation"},
		"create twice":                    {e: write(OpCreate, nil, a), want: "already holds it"},
		"create of nothing":               {e: write(OpCreate, nil, nil), want: "has no new resource"},
		"update of missing":               {e: write(OpUpdate, b, b), want: "state has no resource"},
		"update without new":              {e: write(OpUpdate, a, nil), want: "has no new resource"},
		"update without old":              {e: write(OpUpdate, nil, a), want: "names no resource"},
		"delete of missing":               {e: write(OpDelete, b, nil), want: "state has no resource"},
		"read of missing":                 {e: write(OpRead, b, nil), want: "state has no resource"},
		"remove of missing":               {e: write(OpRemove, b, nil), want: "state has no resource"},
		"replace of missing":              {e: write(OpReplace, b, thing("b", "b-2")), want: "state has no resource"},
		"resolve of nothing":              {e: write(OpResolve, nil, a), want: "no pending operation"},
		"resolve without a URN":           {e: write(OpResolve, nil, nil), want: "names no resource"},
		"replace onto a live URN":         {e: write(OpReplace, a, p), want: "already holds it"},
		"delete keeping a live record":    {e: write(OpDelete, a, withOutput(a, "v", "5")), want: "not the deleted resource marked missing"},
		"delete keeping another resource": {e: write(OpDelete, a, markedMissing(b)), want: "not the deleted resource marked missing"},
		"end of update of missing": {
			setup: []*Entry{begin(1, OpUpdate, b, b)},
			e:     end(1, OpUpdate, b, b),
			want:  "state has no resource",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			l := NewLive(&Snapshot{Resources: []*Resource{p, a}})
			for _, e := range tc.setup {
				if err := l.Apply(e); err != nil {
					t.Fatal(err)
				}
			}
			before := liveSummary(l)
			err := l.Apply(tc.e)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
			if diff := cmp.Diff(before, liveSummary(l)); diff != "" {
				t.Errorf("a rejected entry changed the state (-before +after):\n%s", diff)
			}
		})
	}
}

// Removing most of a large state compacts Live's node list; what remains
// must keep its order and lookups.
func TestLiveCompaction(t *testing.T) {
	rs := []*Resource{prov("test")}
	for i := range 3000 {
		rs = append(rs, thing(fmt.Sprint("r", i), fmt.Sprint(i)))
	}
	l := NewLive(&Snapshot{Resources: rs})
	for _, r := range rs[1:2900] {
		if err := l.Apply(write(OpDelete, r, nil)); err != nil {
			t.Fatal(err)
		}
	}
	if l.Len() != 102 {
		t.Fatalf("Len = %d, want 102", l.Len())
	}
	if diff := cmp.Diff(urns(&Snapshot{Resources: append([]*Resource{rs[0]}, rs[2900:]...)}), urns(l.Snapshot())); diff != "" {
		t.Errorf("remaining (-want +got):\n%s", diff)
	}
	if l.Get(rs[2950].URN) != rs[2950] || l.Get(rs[5].URN) != nil {
		t.Error("lookups are wrong after compaction")
	}
}
