package state

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestMemoryJournalAssignsSeqAndApplies(t *testing.T) {
	j := NewMemoryJournal(nil, VerifyEach(t))
	ctx := context.Background()
	p, a := prov("test"), thing("a", "a-1")
	for _, e := range []*Entry{
		begin(1, OpCreate, nil, p), end(1, OpCreate, nil, p),
		begin(2, OpCreate, nil, thing("a", "")), end(2, OpCreate, nil, a),
	} {
		if err := j.Record(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	var seqs []uint64
	for _, e := range j.Entries() {
		seqs = append(seqs, e.Seq)
	}
	if diff := cmp.Diff([]uint64{1, 2, 3, 4}, seqs); diff != "" {
		t.Errorf("seqs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"default/p-1", "a/a-1"}, urns(j.Snapshot())); diff != "" {
		t.Errorf("snapshot (-want +got):\n%s", diff)
	}
	if n := len(j.Pending()); n != 0 {
		t.Errorf("pending = %d, want 0", n)
	}
}

func TestMemoryJournalConcurrentRecords(t *testing.T) {
	j := NewMemoryJournal(&Snapshot{Resources: []*Resource{prov("test")}})
	ctx := context.Background()
	var wg sync.WaitGroup
	const n = 200
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := thing(fmt.Sprint("r", i), fmt.Sprint("id", i))
			if err := j.Record(ctx, begin(uint64(i+1), OpCreate, nil, r)); err != nil {
				t.Error(err)
			}
			if err := j.Record(ctx, end(uint64(i+1), OpCreate, nil, r)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	s := j.Snapshot()
	if got := len(s.Resources); got != n+1 {
		t.Errorf("resources = %d, want %d", got, n+1)
	}
	if err := s.Verify(); err != nil {
		t.Error(err)
	}
	for i, e := range j.Entries() {
		if e.Seq != uint64(i+1) {
			t.Fatalf("entry %d has seq %d", i, e.Seq)
		}
	}
}

// recorder is a Reporter that keeps what it was told.
type recorder struct{ msgs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func TestMemoryJournalVerifyEachReportsBrokenState(t *testing.T) {
	rep := &recorder{}
	j := NewMemoryJournal(nil, VerifyEach(rep))
	// A custom resource whose provider is not in state breaks integrity.
	err := j.Record(context.Background(), write(OpCreate, nil, thing("a", "a-1")))
	if err == nil || !strings.Contains(err.Error(), "provider") {
		t.Fatalf("Record error = %v, want an integrity error about the provider", err)
	}
	if len(rep.msgs) != 1 {
		t.Errorf("reporter got %q, want one message", rep.msgs)
	}
}

func TestMemoryJournalRejectedEntryIsNotKept(t *testing.T) {
	j := NewMemoryJournal(nil)
	err := j.Record(context.Background(), end(7, OpCreate, nil, thing("a", "a-1")))
	if err == nil {
		t.Fatal("an End without a Begin was accepted")
	}
	if n := len(j.Entries()); n != 0 {
		t.Errorf("entries = %d, want 0", n)
	}
	// The next accepted entry still gets Seq 1.
	e := write(OpCreate, nil, prov("test"))
	if err := j.Record(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	if e.Seq != 1 {
		t.Errorf("seq = %d, want 1", e.Seq)
	}
}

func TestMemoryJournalFailRecord(t *testing.T) {
	boom := errors.New("disk full")
	j := NewMemoryJournal(nil, FailRecord(func(e *Entry) error {
		if e.Kind == End {
			return boom
		}
		return nil
	}))
	ctx := context.Background()
	p := prov("test")
	if err := j.Record(ctx, begin(1, OpCreate, nil, p)); err != nil {
		t.Fatal(err)
	}
	if err := j.Record(ctx, end(1, OpCreate, nil, p)); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want %v", err, boom)
	}
	if diff := cmp.Diff([]string{"default"}, pendingNames(j.Pending())); diff != "" {
		t.Errorf("pending (-want +got):\n%s", diff)
	}
}

func pendingNames(ps []PendingOperation) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Resource.URN.Name())
	}
	return out
}

func TestMemoryJournalReplayPrefix(t *testing.T) {
	j := NewMemoryJournal(&Snapshot{Resources: []*Resource{prov("test")}})
	ctx := context.Background()
	a, b := thing("a", "a-1"), thing("b", "b-1")
	for _, e := range []*Entry{
		begin(1, OpCreate, nil, thing("a", "")), end(1, OpCreate, nil, a),
		begin(2, OpCreate, nil, thing("b", "")), end(2, OpCreate, nil, b),
	} {
		if err := j.Record(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	tests := map[int]struct {
		resources []string
		pending   []string
	}{
		0: {resources: []string{"default/p-1"}},
		1: {resources: []string{"default/p-1"}, pending: []string{"a"}},
		2: {resources: []string{"default/p-1", "a/a-1"}},
		3: {resources: []string{"default/p-1", "a/a-1"}, pending: []string{"b"}},
		4: {resources: []string{"default/p-1", "a/a-1", "b/b-1"}},
	}
	for n, tc := range tests {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			l, err := j.ReplayPrefix(n)
			if err != nil {
				t.Fatal(err)
			}
			s := l.Snapshot()
			if diff := cmp.Diff(tc.resources, urns(s)); diff != "" {
				t.Errorf("resources (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.pending, pendingNames(s.Pending)); diff != "" {
				t.Errorf("pending (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := j.ReplayPrefix(5); err == nil {
		t.Error("ReplayPrefix(5) of 4 entries succeeded")
	}
}

func TestMemoryJournalRejectsUnstorableEntries(t *testing.T) {
	j := NewMemoryJournal(nil)
	r := prov("test")
	r.Outputs = resource.Object{"token": resource.MakeSecret(resource.NewString("x")), "later": resource.Unknown()}
	err := j.Record(context.Background(), write(OpCreate, nil, r))
	if err == nil || !strings.Contains(err.Error(), "outputs: property later: the value is unknown") {
		t.Fatalf("error = %v, want the unknown property named", err)
	}
	if len(j.Entries()) != 0 || len(j.Snapshot().Resources) != 0 {
		t.Error("an entry that cannot be stored was applied")
	}
}
