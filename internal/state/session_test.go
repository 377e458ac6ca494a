package state_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/statetest"
	"github.com/plinth-iac/plinth/sdk/resource"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func urn(name string) resource.URN {
	return resource.NewURN("dev", "proj", "", "plinth:test:Thing", name)
}

var providerURN = resource.NewURN("dev", "proj", "", "pulumi:providers:test", "default")

func prov() *state.Resource {
	return &state.Resource{URN: providerURN, Type: "pulumi:providers:test", Custom: true, ID: "p-1"}
}

func thing(name, id string, deps ...resource.URN) *state.Resource {
	return &state.Resource{
		URN: urn(name), Type: "plinth:test:Thing", Custom: true, ID: id,
		Provider: state.ProviderRef(providerURN, "p-1"), Dependencies: deps,
		Inputs: resource.Object{"name": resource.NewString(name)},
	}
}

func entry(step uint64, kind state.EntryKind, op state.Op, old, new *state.Resource) *state.Entry {
	return &state.Entry{Step: step, Kind: kind, Op: op, Old: old, New: new, Time: t0}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, b state.Backend) *state.Session {
	t.Helper()
	s, err := state.Open(context.Background(), b, "dev", state.OpenOptions{Command: "test", Verify: true})
	must(t, err)
	return s
}

func record(t *testing.T, s *state.Session, es ...*state.Entry) {
	t.Helper()
	for _, e := range es {
		must(t, s.Record(context.Background(), e))
	}
}

// summary lists resources as name=id (with a mark for pending deletions)
// and pending operations as op:name.
func summary(s *state.Snapshot) []string {
	var out []string
	for _, r := range s.Resources {
		item := r.URN.Name() + "=" + r.ID
		if r.Delete {
			item += " (delete)"
		}
		out = append(out, item)
	}
	for _, p := range s.Pending {
		out = append(out, "pending "+string(p.Op)+":"+p.Resource.URN.Name())
	}
	return out
}

func TestGroupCommit(t *testing.T) {
	const n = 300
	b := statetest.NewMemoryBackend()
	s := open(t, b)
	record(t, s, entry(0, state.Write, state.OpCreate, nil, prov()))
	// Hold the first append until every other record is queued behind it,
	// as a slow fsync would.
	var appends int
	b.BeforeAppend = func(_ string, records [][]byte) error {
		if appends++; appends == 1 {
			for s.QueuedForTest()+len(records) < n {
				runtime.Gosched()
			}
		}
		return nil
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprint("r", i)
			if err := s.Record(context.Background(), entry(0, state.Write, state.OpCreate, nil, thing(name, "id-"+name))); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	c := b.Counts()
	if c.Records != n+1 || c.Appends > 3 {
		t.Errorf("%d records took %d appends; want %d records in at most 3 appends", c.Records, c.Appends, n+1)
	}
	must(t, s.Close(context.Background()))
}

func TestSessionRoundTripAndSeq(t *testing.T) {
	ctx := context.Background()
	b := statetest.NewMemoryBackend()
	s := open(t, b)
	e := entry(1, state.Begin, state.OpCreate, nil, prov())
	record(t, s, e, entry(1, state.End, state.OpCreate, nil, prov()))
	if e.Seq != 1 {
		t.Errorf("first Seq = %d, want 1", e.Seq)
	}
	must(t, s.Close(ctx))
	s = open(t, b)
	if s.Recovered() != 0 {
		t.Errorf("a cleanly closed stack recovered %d entries", s.Recovered())
	}
	e = entry(1, state.Write, state.OpCreate, nil, thing("a", "a-1"))
	record(t, s, e)
	if e.Seq != 3 {
		t.Errorf("Seq in the second session = %d, want 3 (numbers continue across sessions)", e.Seq)
	}
	must(t, s.Close(ctx))
	got, err := state.Load(ctx, b, "dev", state.OpenOptions{})
	must(t, err)
	if diff := cmp.Diff([]string{"default=p-1", "a=a-1"}, summary(got)); diff != "" {
		t.Errorf("state (-want +got):\n%s", diff)
	}
}

func TestRecordRejectsWithoutWriting(t *testing.T) {
	b := statetest.NewMemoryBackend()
	s := open(t, b)
	defer s.Close(context.Background())
	unknown := thing("a", "a-1")
	unknown.Inputs["size"] = resource.Unknown()
	tests := map[string]struct {
		e    *state.Entry
		want string
	}{
		"unknown value":     {entry(1, state.Begin, state.OpCreate, nil, unknown), "inputs: property size: the value is unknown"},
		"end without begin": {entry(9, state.End, state.OpCreate, nil, prov()), "step 9 ended but never began"},
		"update of nothing": {entry(0, state.Write, state.OpUpdate, thing("x", "x-1"), thing("x", "x-1")), "state has no resource"},
		// What the loader would refuse is never written (state.CheckIdentity).
		"type holding ::": {entry(0, state.Write, state.OpCreate, nil,
			&state.Resource{URN: resource.NewURN("dev", "proj", "", "my::Comp", "c"), Type: "my::Comp"}), `holds "::"`},
		"custom type without a package": {entry(0, state.Write, state.OpCreate, nil,
			&state.Resource{URN: resource.NewURN("dev", "proj", "", "component", "c"), Type: "component", Custom: true, ID: "c-1"}), "names no package"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := s.Record(context.Background(), tc.e)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if c := b.Counts(); c.Records != 0 {
		t.Errorf("rejected entries wrote %d records", c.Records)
	}
	e := entry(0, state.Write, state.OpCreate, nil, prov())
	record(t, s, e)
	if e.Seq != 1 {
		t.Errorf("Seq after rejections = %d, want 1", e.Seq)
	}
}

func TestAppendFailure(t *testing.T) {
	ctx := context.Background()
	b := statetest.NewMemoryBackend()
	s := open(t, b)
	record(t, s, entry(1, state.Begin, state.OpCreate, nil, prov()))
	boom := errors.New("disk full")
	b.BeforeAppend = func(string, [][]byte) error { return boom }
	// The End fails to reach the journal, but the step did happen.
	if err := s.Record(ctx, entry(1, state.End, state.OpCreate, nil, prov())); !errors.Is(err, boom) {
		t.Fatalf("End: error = %v, want %v", err, boom)
	}
	err := s.Record(ctx, entry(2, state.Begin, state.OpCreate, nil, thing("a", "")))
	if err == nil || !strings.Contains(err.Error(), "failed earlier") {
		t.Fatalf("Record after a failure: error = %v, want a refusal", err)
	}
	b.BeforeAppend = nil
	must(t, s.Close(ctx))
	got, err := state.Load(ctx, b, "dev", state.OpenOptions{})
	must(t, err)
	if diff := cmp.Diff([]string{"default=p-1"}, summary(got)); diff != "" {
		t.Errorf("state saved by Close (-want +got):\n%s", diff)
	}
}

func TestWithdrawnBeginIsNotPending(t *testing.T) {
	ctx := context.Background()
	b := statetest.NewMemoryBackend()
	s := open(t, b)
	b.BeforeAppend = func(string, [][]byte) error { return errors.New("disk full") }
	if err := s.Record(ctx, entry(1, state.Begin, state.OpCreate, nil, prov())); err == nil {
		t.Fatal("Record succeeded with a failing journal")
	}
	if p := s.Pending(); len(p) != 0 {
		t.Errorf("a Begin that was never written is pending: %v", summary(&state.Snapshot{Pending: p}))
	}
	must(t, s.Close(ctx))
}

func TestCrashRecovery(t *testing.T) {
	ctx := context.Background()
	b := statetest.NewMemoryBackend()
	s := open(t, b)
	record(t, s,
		entry(1, state.Begin, state.OpCreate, nil, prov()), entry(1, state.End, state.OpCreate, nil, prov()),
		entry(2, state.Begin, state.OpCreate, nil, thing("a", "")), entry(2, state.End, state.OpCreate, nil, thing("a", "a-1")),
		entry(3, state.Begin, state.OpCreate, nil, thing("b", "")),
		entry(4, state.Begin, state.OpDelete, thing("a", "a-1"), nil),
	)
	s.CrashForTest()
	if _, err := state.Open(ctx, b, "dev", state.OpenOptions{}); err == nil {
		t.Fatal("opened a stack still locked by the crashed session")
	}
	must(t, b.ForceUnlock(ctx, "dev"))
	s = open(t, b)
	if s.Recovered() != 6 {
		t.Errorf("recovered %d entries, want 6", s.Recovered())
	}
	want := []string{"default=p-1", "a=a-1", "pending create:b", "pending delete:a"}
	if diff := cmp.Diff(want, summary(s.Base())); diff != "" {
		t.Errorf("recovered state (-want +got):\n%s", diff)
	}
	if rs, _ := b.ReadJournal(ctx, "dev"); len(rs.Records) != 0 {
		t.Errorf("the journal was not emptied after recovery: %d records", len(rs.Records))
	}
	// Step numbers start fresh: step 3 is free again.
	record(t, s, entry(3, state.Begin, state.OpCreate, nil, thing("c", "")), entry(3, state.End, state.OpCreate, nil, thing("c", "c-1")))
	must(t, s.ResolvePending(ctx, urn("b"), "b-1"))
	must(t, s.ResolvePending(ctx, urn("a"), ""))
	must(t, s.Close(ctx))
	got, err := state.Load(ctx, b, "dev", state.OpenOptions{Verify: true})
	must(t, err)
	if diff := cmp.Diff([]string{"default=p-1", "a=a-1", "c=c-1", "b=b-1"}, summary(got)); diff != "" {
		t.Errorf("state after resolving (-want +got):\n%s", diff)
	}
}

// TestCrashAtEveryPoint replays every prefix of a run's journal, as a kill
// after each append would leave it, and checks that the recovered state is
// the base plus exactly that prefix.
func TestCrashAtEveryPoint(t *testing.T) {
	ctx := context.Background()
	base := &state.Snapshot{Resources: []*state.Resource{prov(), thing("old", "o-1")}}
	run := []*state.Entry{
		entry(1, state.Begin, state.OpCreate, nil, thing("a", "")),
		entry(2, state.Begin, state.OpUpdate, thing("old", "o-1"), thing("old", "o-1")),
		entry(1, state.End, state.OpCreate, nil, thing("a", "a-1")),
		entry(3, state.Begin, state.OpReplace, thing("old", "o-1"), thing("old", "")),
		entry(2, state.Fail, state.OpUpdate, thing("old", "o-1"), nil),
		entry(3, state.End, state.OpReplace, thing("old", "o-1"), thing("old", "o-2")),
		entry(4, state.Begin, state.OpDelete, &state.Resource{URN: urn("old"), Type: "plinth:test:Thing", Custom: true, ID: "o-1", Provider: state.ProviderRef(providerURN, "p-1"), Delete: true}, nil),
		entry(4, state.End, state.OpDelete, &state.Resource{URN: urn("old"), Type: "plinth:test:Thing", Custom: true, ID: "o-1", Provider: state.ProviderRef(providerURN, "p-1"), Delete: true}, nil),
	}
	src := statetest.NewMemoryBackend()
	data, err := state.EncodeSnapshot(base, 0, nil)
	must(t, err)
	must(t, src.WriteSnapshot(ctx, "dev", data))
	s := open(t, src)
	mem := state.NewMemoryJournal(base)
	for _, e := range run {
		record(t, s, e)
		must(t, mem.Record(ctx, e))
	}
	s.CrashForTest()
	read, err := src.ReadJournal(ctx, "dev")
	must(t, err)
	journal := read.Records
	for k := 0; k <= len(journal); k++ {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			b := statetest.NewMemoryBackend()
			must(t, b.WriteSnapshot(ctx, "dev", data))
			must(t, b.AppendJournal(ctx, "dev", journal[:k]))
			got := open(t, b)
			defer got.Close(ctx)
			live, err := mem.ReplayPrefix(k)
			must(t, err)
			if diff := cmp.Diff(summary(live.Snapshot()), summary(got.Base())); diff != "" {
				t.Errorf("recovered (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCrashBetweenSnapshotAndTruncate(t *testing.T) {
	ctx := context.Background()
	b := statetest.NewMemoryBackend()
	s := open(t, b)
	record(t, s, entry(0, state.Write, state.OpCreate, nil, prov()), entry(0, state.Write, state.OpCreate, nil, thing("a", "a-1")))
	b.BeforeTruncate = func(string) error { return errors.New("killed") }
	if err := s.Close(ctx); err == nil {
		t.Fatal("Close succeeded although the journal could not be emptied")
	}
	b.BeforeTruncate = nil
	// The snapshot holds everything and the journal still holds it all too:
	// replay must not apply the entries twice.
	s = open(t, b)
	if s.Recovered() != 0 {
		t.Errorf("recovered %d entries the snapshot already holds", s.Recovered())
	}
	if diff := cmp.Diff([]string{"default=p-1", "a=a-1"}, summary(s.Base())); diff != "" {
		t.Errorf("state (-want +got):\n%s", diff)
	}
	must(t, s.Close(ctx))
}

func TestLoadIsReadOnly(t *testing.T) {
	ctx := context.Background()
	b := statetest.NewMemoryBackend()
	s := open(t, b)
	record(t, s, entry(0, state.Write, state.OpCreate, nil, prov()))
	before := b.Counts()
	got, err := state.Load(ctx, b, "dev", state.OpenOptions{})
	must(t, err)
	if diff := cmp.Diff([]string{"default=p-1"}, summary(got)); diff != "" {
		t.Errorf("Load during a session sees (-want +got):\n%s", diff)
	}
	if after := b.Counts(); after != before {
		t.Errorf("Load wrote: %+v then %+v", before, after)
	}
	must(t, s.Close(ctx))
	empty, err := state.Load(ctx, b, "nothing-here", state.OpenOptions{})
	must(t, err)
	if len(empty.Resources) != 0 {
		t.Errorf("a missing stack loads with %d resources", len(empty.Resources))
	}
}

func TestDamagedStateNamesPlace(t *testing.T) {
	ctx := context.Background()
	tests := map[string]struct {
		snapshot string
		journal  []string
		want     string
	}{
		"truncated snapshot": {snapshot: `{"version":1,"resources":[{"urn":`, want: "the snapshot of stack dev (in memory) is damaged: it ends early"},
		"bad journal record": {snapshot: `{"version":1,"seq":0,"resources":[]}`, journal: []string{`{"seq":1,"v":1,"kind":"nope","op":"create"}`}, want: `the journal of stack dev (in memory) is damaged: record 1: unknown entry kind "nope"`},
		"gap in journal":     {snapshot: `{"version":1,"seq":0,"resources":[]}`, journal: []string{`{"seq":2,"v":1,"kind":"begin","op":"create","step":1}`}, want: "entries are missing"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			b := statetest.NewMemoryBackend()
			must(t, b.WriteSnapshot(ctx, "dev", []byte(tc.snapshot)))
			var rs [][]byte
			for _, r := range tc.journal {
				rs = append(rs, []byte(r))
			}
			must(t, b.AppendJournal(ctx, "dev", rs))
			_, err := state.Open(ctx, b, "dev", state.OpenOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "plinth state import") {
				t.Fatalf("error = %v, want it to contain %q and a way out", err, tc.want)
			}
			var de *state.DamagedError
			if !errors.As(err, &de) {
				t.Errorf("error is not a *state.DamagedError")
			}
			// A failed Open releases the lock.
			u, err := b.Lock(ctx, "dev", state.CurrentProcess("test"))
			must(t, err)
			must(t, u.Unlock(ctx))
		})
	}
}

func TestRemoveResource(t *testing.T) {
	ctx := context.Background()
	b := statetest.NewMemoryBackend()
	s := open(t, b)
	record(t, s,
		entry(0, state.Write, state.OpCreate, nil, prov()),
		entry(0, state.Write, state.OpCreate, nil, thing("a", "a-1")),
		entry(0, state.Write, state.OpCreate, nil, thing("b", "b-1", urn("a"))),
	)
	err := s.RemoveResource(ctx, urn("a"))
	if err == nil || !strings.Contains(err.Error(), string(urn("b"))+" refer to it") {
		t.Fatalf("removing a resource others depend on: error = %v", err)
	}
	if err := s.RemoveResource(ctx, urn("zzz")); err == nil {
		t.Error("removing a missing resource succeeded")
	}
	must(t, s.RemoveResource(ctx, urn("b")))
	must(t, s.RemoveResource(ctx, urn("a")))
	must(t, s.Close(ctx))
	got, err := state.Load(ctx, b, "dev", state.OpenOptions{Verify: true})
	must(t, err)
	if diff := cmp.Diff([]string{"default=p-1"}, summary(got)); diff != "" {
		t.Errorf("state (-want +got):\n%s", diff)
	}
}

func TestResolvePendingReplace(t *testing.T) {
	ctx := context.Background()
	b := statetest.NewMemoryBackend()
	s := open(t, b)
	record(t, s,
		entry(0, state.Write, state.OpCreate, nil, prov()),
		entry(0, state.Write, state.OpCreate, nil, thing("a", "a-1")),
		entry(1, state.Begin, state.OpReplace, thing("a", "a-1"), thing("a", "")),
	)
	s.CrashForTest()
	must(t, b.ForceUnlock(ctx, "dev"))
	s = open(t, b)
	if err := s.ResolvePending(ctx, urn("nope"), ""); err == nil {
		t.Error("resolving a URN with nothing pending succeeded")
	}
	must(t, s.ResolvePending(ctx, urn("a"), "a-2"))
	must(t, s.Close(ctx))
	got, err := state.Load(ctx, b, "dev", state.OpenOptions{Verify: true})
	must(t, err)
	if diff := cmp.Diff([]string{"default=p-1", "a=a-1 (delete)", "a=a-2"}, summary(got)); diff != "" {
		t.Errorf("state (-want +got):\n%s", diff)
	}
}

func TestReplaceSnapshot(t *testing.T) {
	ctx := context.Background()
	b := statetest.NewMemoryBackend()
	s := open(t, b)
	record(t, s, entry(0, state.Write, state.OpCreate, nil, prov()))
	broken := &state.Snapshot{Resources: []*state.Resource{thing("orphan", "o-1")}}
	if err := s.ReplaceSnapshot(ctx, broken); err == nil || !strings.Contains(err.Error(), "integrity") {
		t.Fatalf("importing a broken snapshot: error = %v", err)
	}
	imported := &state.Snapshot{Resources: []*state.Resource{prov(), thing("x", "x-1")}}
	must(t, s.ReplaceSnapshot(ctx, imported))
	record(t, s, entry(0, state.Write, state.OpCreate, nil, thing("y", "y-1")))
	must(t, s.Close(ctx))
	got, err := state.Load(ctx, b, "dev", state.OpenOptions{Verify: true})
	must(t, err)
	if diff := cmp.Diff([]string{"default=p-1", "x=x-1", "y=y-1"}, summary(got)); diff != "" {
		t.Errorf("state (-want +got):\n%s", diff)
	}
}

func TestRecordAfterClose(t *testing.T) {
	s := open(t, statetest.NewMemoryBackend())
	must(t, s.Close(context.Background()))
	if err := s.Record(context.Background(), entry(0, state.Write, state.OpCreate, nil, prov())); !errors.Is(err, state.ErrClosed) {
		t.Errorf("error = %v, want ErrClosed", err)
	}
	must(t, s.Close(context.Background()))
}

func TestMissingKeyIsNotDamage(t *testing.T) {
	ctx := context.Background()
	b := statetest.NewMemoryBackend()
	c, _, err := secrets.Open(ctx, b, "dev", secrets.Options{})
	must(t, err)
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{Crypter: c})
	must(t, err)
	p := prov()
	p.Outputs = resource.Object{"token": resource.MakeSecret(resource.NewString("x"))}
	record(t, s, entry(0, state.Write, state.OpCreate, nil, p))
	must(t, s.Close(ctx))
	_, err = state.Load(ctx, b, "dev", state.OpenOptions{})
	if !errors.Is(err, state.ErrCannotDecrypt) || strings.Contains(err.Error(), "damaged") {
		t.Fatalf("error = %v, want ErrCannotDecrypt and no talk of damage", err)
	}
	other, err := secrets.NewCrypter(make([]byte, secrets.KeySize))
	must(t, err)
	_, err = state.Load(ctx, b, "dev", state.OpenOptions{Crypter: other})
	if !errors.Is(err, state.ErrCannotDecrypt) {
		t.Fatalf("with another key: error = %v, want ErrCannotDecrypt", err)
	}
}
