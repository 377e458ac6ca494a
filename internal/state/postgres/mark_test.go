package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/postgres"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
)

// markOf returns the stack's mark as the backend reads it.
func markOf(t *testing.T, b *postgres.Backend, stack string) state.Mark {
	t.Helper()
	data, err := b.ReadMark(context.Background(), stack)
	if err != nil {
		t.Fatalf("reading the mark of stack %s: %v", stack, err)
	}
	var r struct {
		State *state.Mark `json:"state"`
	}
	if err := json.Unmarshal(data, &r); err != nil || r.State == nil {
		t.Fatalf("the mark of stack %s reads as %q (%v), which holds no mark", stack, data, err)
	}
	return *r.State
}

// snapshotMarkOf returns the mark the stack's stored snapshot carries.
func snapshotMarkOf(t *testing.T, b *postgres.Backend, stack string) state.Mark {
	t.Helper()
	data, err := b.ReadSnapshot(context.Background(), stack)
	mustDo(t, err)
	var m state.Mark
	mustDo(t, json.Unmarshal(data, &m))
	return m
}

// lostMarks is the backend of a session that crashes after each journal
// append and compaction, before the mark it writes next: WriteMark
// stores nothing. Whatever mark the database holds, the append or the
// compaction wrote itself.
type lostMarks struct{ *postgres.Backend }

func (lostMarks) WriteMark(context.Context, string, []byte) error { return nil }

// TestMarkIsDurableWithTheAppend records entries through a session whose
// marks are lost as in a crash right after each append, crashes it, and
// deletes the last journal row: the load is refused, since the append
// itself moved the mark. It does so for a stack with a history and for a
// stack whose first append this is.
func TestMarkIsDurableWithTheAppend(t *testing.T) {
	tests := map[string]struct {
		runs bool
		want []string
	}{
		"after three runs": {runs: true, want: []string{"journal truncated", "records serial 3,"}},
		"a new stack":      {want: []string{"it was deleted", "sequence 1"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			b := open(t)
			if tc.runs {
				pgRuns(t, b)
			}
			crashed, err := postgres.Open(ctx, postgres.Config{URL: b.URL(), Project: b.Project()})
			mustDo(t, err)
			t.Cleanup(crashed.Close)
			s, err := state.Open(ctx, lostMarks{crashed}, "dev", state.OpenOptions{})
			mustDo(t, err)
			last := &state.Entry{Step: 9, Kind: state.Begin, Op: state.OpCreate, New: thingRes("z", "")}
			mustDo(t, s.Record(ctx, last))
			if got := markOf(t, b, "dev"); got.Seq != last.Seq {
				t.Errorf("the mark after the append is at sequence %d, want %d", got.Seq, last.Seq)
			}
			mustDo(t, b.ForceUnlock(ctx, "dev")) // the crash
			if _, err := state.Load(ctx, b, "dev", state.OpenOptions{Verify: true}); err != nil {
				t.Fatalf("the crashed run's state: %v", err)
			}
			exec(t, b, "DELETE FROM plinth_journal WHERE stack = 'dev' AND id = (SELECT max(id) FROM plinth_journal WHERE stack = 'dev')")
			wantRollback(t, b, "the last journal row deleted", tc.want...)
		})
	}
}

// TestCompactionWritesTheMark closes a session whose own mark writes are
// lost: the compaction's transaction set the mark to the new snapshot's,
// and a snapshot row put back from before is refused.
func TestCompactionWritesTheMark(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	snaps := pgRuns(t, b)
	s, err := state.Open(ctx, lostMarks{b}, "dev", state.OpenOptions{})
	mustDo(t, err)
	mustDo(t, s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: thingRes("d", "d-1")}))
	mustDo(t, s.Close(ctx))
	want := snapshotMarkOf(t, b, "dev")
	if want.Serial != 4 || want.Lineage == "" {
		t.Fatalf("the snapshot after the fourth run has mark %+v, want serial 4 and a lineage", want)
	}
	if diff := cmp.Diff(want, markOf(t, b, "dev")); diff != "" {
		t.Errorf("the mark after compacting (-snapshot's +stored):\n%s", diff)
	}
	exec(t, b, "UPDATE plinth_snapshots SET data = $1 WHERE stack = 'dev'", snaps[2])
	wantRollback(t, b, "the third run's snapshot row put back", "is at serial 3,", "records serial 4,")
}

// TestHistoryGrowsByOperations records 1,000 entries one by one (after
// their provider): the
// history gains the operation's two rows (start and end), not a row per
// journal write, and its mark is the last entry's.
func TestHistoryGrowsByOperations(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{History: state.NewOperation("update", "test")})
	mustDo(t, err)
	mustDo(t, s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate,
		New: &state.Resource{URN: provURN, Type: "pulumi:providers:test", Custom: true, ID: "p-1"}}))
	for i := range 1000 {
		name := fmt.Sprint("r", i)
		mustDo(t, s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: thingRes(name, "id-"+name)}))
	}
	if got := markOf(t, b, "dev"); got.Seq != 1001 {
		t.Errorf("the mark after the provider and 1,000 entries is at sequence %d, want 1001", got.Seq)
	}
	s.Finish(state.ResultSucceeded, map[string]int{"create": 1000})
	mustDo(t, s.Close(ctx))
	recs, err := b.ReadHistory(ctx, "dev")
	mustDo(t, err)
	if len(recs) != 2 {
		t.Errorf("the history holds %d rows after one operation of 1,000 journal writes, want 2:\n%s", len(recs), recs)
	}
	if _, err := state.Load(ctx, b, "dev", state.OpenOptions{Verify: true}); err != nil {
		t.Errorf("loading: %v", err)
	}
}

// TestReadHistoryTail returns the last rows in order, and all of a short
// history.
func TestReadHistoryTail(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	var all []string
	for i := range 40 {
		rec := fmt.Sprintf(`{"id": "op-%d"}`, i) // as jsonb prints it
		mustDo(t, b.AppendHistory(ctx, "dev", []byte(rec)))
		all = append(all, rec)
		if i == 2 {
			got, err := b.ReadHistoryTail(ctx, "dev")
			mustDo(t, err)
			if diff := cmp.Diff(all, strs(got)); diff != "" {
				t.Errorf("the tail of a 3-row history (-want +got):\n%s", diff)
			}
		}
	}
	got, err := b.ReadHistoryTail(ctx, "dev")
	mustDo(t, err)
	if len(got) == 0 || len(got) >= len(all) {
		t.Fatalf("the tail of a 40-row history has %d rows, want the last few", len(got))
	}
	if diff := cmp.Diff(all[len(all)-len(got):], strs(got)); diff != "" {
		t.Errorf("the tail of a 40-row history (-want +got):\n%s", diff)
	}
}

func strs(bs [][]byte) []string {
	var out []string
	for _, b := range bs {
		out = append(out, string(b))
	}
	return out
}

// TestMissingMarkIsNotExist: a stack no session has marked has no mark.
func TestMissingMarkIsNotExist(t *testing.T) {
	b := open(t)
	if _, err := b.ReadMark(context.Background(), "dev"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("reading the mark of a stack without one: %v, want fs.ErrNotExist", err)
	}
}

// TestMarksMigrateFromTheHistory opens a database schema version 3 wrote:
// each stack's mark is the last one its history records, the mark of an
// unclaimed stack goes with its other rows to the project its resources
// name, and a stack whose history records none has none.
func TestMarksMigrateFromTheHistory(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Database(t)
	mustDo(t, postgres.CreateSchema(ctx, url, 3))
	const v3History = `WITH s AS (INSERT INTO plinth_stacks (project, name) VALUES ($1, $2) ON CONFLICT (project, name) DO NOTHING)
		INSERT INTO plinth_history (project, stack, operation, data) VALUES ($1, $2, $3, $4::jsonb)`
	sql(t, url, v3History, "alpha", "dev", "op-1", `{"id":"op-1","kind":"update","state":{"lineage":"l1","serial":2,"seq":5}}`)
	sql(t, url, v3History, "alpha", "dev", "", `{"state":{"lineage":"l1","serial":2,"seq":9},"time":"2026-01-02T03:04:05Z"}`)
	sql(t, url, v3History, "alpha", "dev", "op-1", `{"id":"op-1","kind":"update"}`)
	sql(t, url, v3History, "alpha", "prod", "op-2", `{"id":"op-2","kind":"update"}`)
	sql(t, url, v3History, "", "old", "op-3", `{"id":"op-3","kind":"update","state":{"lineage":"l3","serial":7,"seq":1}}`)
	sql(t, url, `INSERT INTO plinth_snapshots (project, stack, data, written) VALUES ('', 'old', $1, now())`,
		[]byte(`{"resources":[{"urn":"urn:pulumi:old::alpha::t:m:R::r"}]}`))
	b := openAs(t, url, "alpha")
	if got := version(t, b); got != postgres.SchemaVersion {
		t.Errorf("schema version after opening = %d, want %d", got, postgres.SchemaVersion)
	}
	for stack, want := range map[string]state.Mark{"dev": {Lineage: "l1", Serial: 2, Seq: 9}, "old": {Lineage: "l3", Serial: 7, Seq: 1}} {
		if diff := cmp.Diff(want, markOf(t, b, stack)); diff != "" {
			t.Errorf("the mark of stack %s after the migration (-want +got):\n%s", stack, diff)
		}
	}
	if _, err := b.ReadMark(ctx, "prod"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the mark of stack prod, whose history records none: %v, want fs.ErrNotExist", err)
	}
}

// TestAppendWritesTheMarkOnce records 500 entries one by one and counts
// the statements that write plinth_marks (an INSERT trigger counts them):
// one per append, the append's own, since the session's WriteMark after
// it finds the row holding its mark already.
func TestAppendWritesTheMarkOnce(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	exec(t, b, "CREATE TABLE mark_writes (n bigint NOT NULL); INSERT INTO mark_writes VALUES (0)")
	exec(t, b, `CREATE FUNCTION count_mark_write() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN UPDATE mark_writes SET n = n + 1; RETURN NULL; END $$`)
	exec(t, b, "CREATE TRIGGER count_mark_write AFTER INSERT ON plinth_marks FOR EACH STATEMENT EXECUTE FUNCTION count_mark_write()")
	conn := connect(t, b)
	writes := func() int {
		var n int
		mustDo(t, conn.QueryRow(ctx, "SELECT n FROM mark_writes").Scan(&n))
		return n
	}
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{})
	mustDo(t, err)
	mustDo(t, s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate,
		New: &state.Resource{URN: provURN, Type: "pulumi:providers:test", Custom: true, ID: "p-1"}}))
	before := writes()
	for i := range 500 {
		name := fmt.Sprint("r", i)
		mustDo(t, s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: thingRes(name, "id-"+name)}))
	}
	if got := writes() - before; got != 500 {
		t.Errorf("500 appends wrote plinth_marks with %d statements, want 500", got)
	}
	mustDo(t, s.Close(ctx))
}

// TestWriteMarkRefusesWhatIsNoMark: WriteMark stores a mark the state
// package wrote, and refuses other bytes, saying which stack.
func TestWriteMarkRefusesWhatIsNoMark(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	err := b.WriteMark(ctx, "dev", []byte(`{"kind":"update"}`))
	if err == nil || !strings.Contains(err.Error(), "stack dev of project test") {
		t.Errorf("writing a record without a mark: %v, want an error naming the stack", err)
	}
	mustDo(t, b.WriteMark(ctx, "dev", []byte(`{"state":{"lineage":"l","serial":2,"seq":3},"time":"2026-01-02T03:04:05Z"}`)))
	if diff := cmp.Diff(state.Mark{Lineage: "l", Serial: 2, Seq: 3}, markOf(t, b, "dev")); diff != "" {
		t.Errorf("the mark written (-want +read):\n%s", diff)
	}
}
