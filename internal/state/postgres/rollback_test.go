package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/postgres"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The rollback and truncation faults of the file backend's tests
// (internal/state/file/rollback_test.go), over PostgreSQL: an old
// snapshot row put back, journal rows deleted, the stack's rows deleted.
// The marks come from plinth_marks, written with each journal append, and
// from the history table; each fault must be refused with a
// *state.RollbackError.

var provURN = resource.NewURN("dev", "proj", "", "pulumi:providers:test", "default")

func thingRes(name, id string) *state.Resource {
	return &state.Resource{
		URN: resource.NewURN("dev", "proj", "", "plinth:test:Thing", name), Type: "plinth:test:Thing",
		Custom: true, ID: id, Provider: state.ProviderRef(provURN, "p-1"),
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// pgRuns records three clean operations, each creating one resource, and
// returns the snapshot row's data after each.
func pgRuns(t *testing.T, b *postgres.Backend) [][]byte {
	ctx := context.Background()
	var snaps [][]byte
	for i, name := range []string{"a", "b", "c"} {
		s, err := state.Open(ctx, b, "dev", state.OpenOptions{History: state.NewOperation("update", "test")})
		mustDo(t, err)
		if i == 0 {
			mustDo(t, s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate,
				New: &state.Resource{URN: provURN, Type: "pulumi:providers:test", Custom: true, ID: "p-1"}}))
		}
		mustDo(t, s.Record(ctx, &state.Entry{Step: 1, Kind: state.Begin, Op: state.OpCreate, New: thingRes(name, "")}))
		mustDo(t, s.Record(ctx, &state.Entry{Step: 1, Kind: state.End, Op: state.OpCreate, New: thingRes(name, name+"-1")}))
		s.Finish(state.ResultSucceeded, map[string]int{"create": 1})
		mustDo(t, s.Close(ctx))
		data, err := b.ReadSnapshot(ctx, "dev")
		mustDo(t, err)
		snaps = append(snaps, data)
	}
	return snaps
}

// wantRollback loads the stack and fails unless it is refused with a
// *state.RollbackError whose message holds every string of want.
func wantRollback(t *testing.T, b state.Backend, what string, want ...string) {
	t.Helper()
	_, err := state.Load(context.Background(), b, "dev", state.OpenOptions{Verify: true})
	var re *state.RollbackError
	if !errors.As(err, &re) {
		t.Errorf("%s: load error = %v, want a *state.RollbackError", what, err)
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q\nlacks %q", what, err, w)
		}
	}
}

func TestPostgresOldSnapshotRowIsRefused(t *testing.T) {
	b := open(t)
	snaps := pgRuns(t, b)
	for i, old := range snaps[:2] {
		exec(t, b, "UPDATE plinth_snapshots SET data = $1 WHERE stack = 'dev'", old)
		wantRollback(t, b, fmt.Sprintf("the snapshot row of run %d put back", i+1),
			fmt.Sprintf("is at serial %d,", i+1), "records serial 3,", "plinth state accept-rollback --stack dev")
	}
	exec(t, b, "UPDATE plinth_snapshots SET data = $1 WHERE stack = 'dev'", snaps[2])
	if _, err := state.Load(context.Background(), b, "dev", state.OpenOptions{Verify: true}); err != nil {
		t.Errorf("the newest row put back: %v", err)
	}
}

// TestPostgresDeletedJournalRowsAreRefused leaves a crashed run's journal
// (five rows) and deletes its rows from each position to the end.
func TestPostgresDeletedJournalRowsAreRefused(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	pgRuns(t, b)
	crashed, err := postgres.Open(ctx, postgres.Config{URL: b.URL(), Project: b.Project()})
	mustDo(t, err)
	t.Cleanup(crashed.Close)
	s, err := state.Open(ctx, crashed, "dev", state.OpenOptions{History: state.NewOperation("update", "test")})
	mustDo(t, err)
	for i, name := range []string{"d", "e"} {
		mustDo(t, s.Record(ctx, &state.Entry{Step: uint64(i + 1), Kind: state.Begin, Op: state.OpCreate, New: thingRes(name, "")}))
		mustDo(t, s.Record(ctx, &state.Entry{Step: uint64(i + 1), Kind: state.End, Op: state.OpCreate, New: thingRes(name, name+"-1")}))
	}
	last := &state.Entry{Step: 3, Kind: state.Begin, Op: state.OpCreate, New: thingRes("f", "")}
	mustDo(t, s.Record(ctx, last))
	// The append wrote the mark: it is there the moment Record returns,
	// with no wait, as it would be had the run crashed just then.
	if got := markOf(t, b, "dev"); got.Seq != last.Seq {
		t.Fatalf("the mark once the last record is appended is at sequence %d, want %d", got.Seq, last.Seq)
	}
	mustDo(t, b.ForceUnlock(ctx, "dev")) // the crash
	if _, err := state.Load(ctx, b, "dev", state.OpenOptions{Verify: true}); err != nil {
		t.Fatalf("the crashed run's state: %v", err)
	}
	conn := connect(t, b)
	exec(t, b, "CREATE TABLE saved_journal AS SELECT * FROM plinth_journal WHERE stack = 'dev'")
	var ids []int64
	rows, err := conn.Query(ctx, "SELECT id FROM plinth_journal WHERE stack = 'dev' ORDER BY id")
	mustDo(t, err)
	for rows.Next() {
		var id int64
		mustDo(t, rows.Scan(&id))
		ids = append(ids, id)
	}
	mustDo(t, rows.Err())
	if len(ids) != 5 {
		t.Fatalf("the crashed run left %d journal rows, want 5", len(ids))
	}
	for _, from := range ids {
		exec(t, b, "DELETE FROM plinth_journal WHERE stack = 'dev' AND id >= $1", from)
		wantRollback(t, b, fmt.Sprintf("journal rows from id %d deleted", from), "journal truncated", "records serial 3,")
		exec(t, b, "INSERT INTO plinth_journal SELECT * FROM saved_journal WHERE id >= $1", from)
	}
}

// TestPostgresDeletedStackRowsAreRefused deletes the stack's snapshot
// and stack rows, and its journal: the history still records it.
func TestPostgresDeletedStackRowsAreRefused(t *testing.T) {
	b := open(t)
	pgRuns(t, b)
	exec(t, b, "DELETE FROM plinth_snapshots WHERE stack = 'dev'")
	exec(t, b, "DELETE FROM plinth_stacks WHERE name = 'dev'")
	exec(t, b, "DELETE FROM plinth_journal WHERE stack = 'dev'")
	wantRollback(t, b, "the stack's rows deleted", "it was deleted", "records serial 3,")
}
