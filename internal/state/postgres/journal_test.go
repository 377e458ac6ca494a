package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/postgres"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
)

// records makes n journal records of the state package's form, from
// sequence number first on.
func records(first, n int) [][]byte {
	var rs [][]byte
	for i := range n {
		rs = append(rs, fmt.Appendf(nil, `{"seq":%d,"kind":"write","new":{"urn":"urn:pulumi:dev::test::t:m:R::r%d"}}`, first+i, first+i))
	}
	return rs
}

// journalOf reads the stack's journal records as strings.
func journalOf(t *testing.T, b state.Backend, stack string) []string {
	t.Helper()
	jr, err := b.ReadJournal(context.Background(), stack)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range jr.Records {
		out = append(out, string(r))
	}
	return out
}

// joined is the records of the batches, in order, as strings.
func joined(batches ...[][]byte) []string {
	var out []string
	for _, b := range batches {
		out = append(out, strs(b)...)
	}
	return out
}

// count runs a count(*) query on the backend's database.
func count(t *testing.T, b *postgres.Backend, q string, args ...any) int {
	t.Helper()
	var n int
	if err := connect(t, b).QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// TestJournalRowPerAppend appends batches of 3, 1 and 5 records, with
// and without the lock: each append is one row of the journal table, and
// the journal reads back every record in order.
func TestJournalRowPerAppend(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	batches := [][][]byte{records(1, 3), records(4, 1), records(5, 5)}
	mustDo(t, b.AppendJournal(ctx, "dev", batches[0]))
	u, err := b.Lock(ctx, "dev", state.CurrentProcess("test"))
	mustDo(t, err)
	defer u.Unlock(ctx)
	for _, batch := range batches[1:] {
		mustDo(t, b.AppendJournal(ctx, "dev", batch))
	}
	if diff := cmp.Diff(joined(batches...), journalOf(t, b, "dev")); diff != "" {
		t.Errorf("the journal read back (-appended +read):\n%s", diff)
	}
	if n := count(t, b, "SELECT count(*) FROM plinth_journal WHERE stack = 'dev'"); n != len(batches) {
		t.Errorf("%d appends wrote %d journal rows, want one each", len(batches), n)
	}
	if got := markOf(t, b, "dev").Seq; got != 9 {
		t.Errorf("the mark after the appends is at sequence %d, want 9 (the last record's)", got)
	}
}

// TestJournalOfBothForms opens a database whose journal rows a plinth
// before schema version 5 wrote, one record a row, and appends to it:
// the old rows and the new batch read back in order, and compaction
// empties both.
func TestJournalOfBothForms(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Database(t)
	mustDo(t, postgres.CreateSchema(ctx, url, 4))
	old := records(1, 3)
	sql(t, url, `WITH s AS (INSERT INTO plinth_stacks (project, name) VALUES ('test', 'dev') ON CONFLICT DO NOTHING)
		INSERT INTO plinth_journal (project, stack, data) SELECT 'test', 'dev', r.data FROM unnest($1::bytea[]) WITH ORDINALITY AS r(data, n) ORDER BY r.n`, old)
	b := openAs(t, url, "test")
	if got := version(t, b); got != postgres.SchemaVersion {
		t.Fatalf("schema version after opening = %d, want %d", got, postgres.SchemaVersion)
	}
	batch := records(4, 2)
	mustDo(t, b.AppendJournal(ctx, "dev", batch))
	if diff := cmp.Diff(joined(old, batch), journalOf(t, b, "dev")); diff != "" {
		t.Errorf("the journal of old rows and a new batch (-want +read):\n%s", diff)
	}
	mustDo(t, b.Compact(ctx, "dev", []byte(`{"version":2,"seq":5,"resources":[]}`)))
	if got := journalOf(t, b, "dev"); len(got) != 0 {
		t.Errorf("the journal after compacting holds %q", got)
	}
}

// TestAppendWithFailingRecordStoresNothing appends a batch one of whose
// records the database refuses (a trigger raises on it), with and
// without the lock: the append fails and the journal holds exactly the
// batches before it; a later batch is stored after them.
func TestAppendWithFailingRecordStoresNothing(t *testing.T) {
	for _, locked := range []bool{false, true} {
		t.Run(fmt.Sprint("locked=", locked), func(t *testing.T) {
			ctx := context.Background()
			b := open(t)
			exec(t, b, `CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
				BEGIN IF 'refused'::bytea = ANY(NEW.records) THEN RAISE EXCEPTION 'record refused'; END IF; RETURN NEW; END $$`)
			exec(t, b, `CREATE TRIGGER refuse BEFORE INSERT ON plinth_journal FOR EACH ROW EXECUTE FUNCTION refuse()`)
			if locked {
				u, err := b.Lock(ctx, "dev", state.CurrentProcess("test"))
				mustDo(t, err)
				defer u.Unlock(ctx)
			}
			first, last := records(1, 2), records(3, 2)
			mustDo(t, b.AppendJournal(ctx, "dev", first))
			bad := append(records(3, 2), []byte("refused"))
			err := b.AppendJournal(ctx, "dev", bad)
			if err == nil || !strings.Contains(err.Error(), "record refused") || errors.Is(err, state.ErrInterrupted) {
				t.Fatalf("appending a batch with a refused record: error = %v, want the database's refusal", err)
			}
			if diff := cmp.Diff(joined(first), journalOf(t, b, "dev")); diff != "" {
				t.Errorf("the journal after the refused batch (-want +read):\n%s", diff)
			}
			mustDo(t, b.AppendJournal(ctx, "dev", last))
			if diff := cmp.Diff(joined(first, last), journalOf(t, b, "dev")); diff != "" {
				t.Errorf("the journal after the next batch (-want +read):\n%s", diff)
			}
		})
	}
}

// TestAppendConnectionLost cuts the lock's connection during an append,
// before the server saw it and after the server committed it (its answer
// dropped): either way the append regains the lock, reports every record
// stored (state.ErrInterrupted), and the journal holds the batch exactly
// once, after the batches before it.
func TestAppendConnectionLost(t *testing.T) {
	for _, cut := range []cutMode{cutRequest, cutAnswer} {
		t.Run(cut.String(), func(t *testing.T) {
			ctx := context.Background()
			direct := pgtest.Database(t)
			p := newCutProxy(t, pgtest.Shared(t).Port(), func() { waitUnlocked(t, direct) })
			b := openAs(t, p.url(direct), "test")
			u, err := b.Lock(ctx, "dev", state.CurrentProcess("test"))
			mustDo(t, err)
			defer u.Unlock(ctx)
			first, batch := records(1, 2), records(3, 4)
			mustDo(t, b.AppendJournal(ctx, "dev", first)) // prepares the statement
			p.arm(cut)
			err = b.AppendJournal(ctx, "dev", batch)
			if !errors.Is(err, state.ErrInterrupted) {
				t.Fatalf("the append whose connection was cut: error = %v, want one matching state.ErrInterrupted", err)
			}
			if !p.fired() {
				t.Fatal("the proxy cut no connection")
			}
			if diff := cmp.Diff(joined(first, batch), journalOf(t, b, "dev")); diff != "" {
				t.Errorf("the journal after the cut append (-want +read):\n%s", diff)
			}
		})
	}
}

// TestCommandConnections runs what a command does, through a proxy that
// counts connections: open the backend, read the stack, lock it, append,
// compact, unlock. It makes two connections: the pool's one, which the
// migration also ran on, and the lock's own.
func TestCommandConnections(t *testing.T) {
	ctx := context.Background()
	direct := pgtest.Database(t)
	p := newCutProxy(t, pgtest.Shared(t).Port(), func() {})
	b := openAs(t, p.url(direct), "test")
	if _, err := b.ReadSnapshot(ctx, "dev"); err == nil {
		t.Fatal("a new stack has a snapshot")
	}
	u, err := b.Lock(ctx, "dev", state.CurrentProcess("test"))
	mustDo(t, err)
	mustDo(t, b.AppendJournal(ctx, "dev", records(1, 2)))
	mustDo(t, b.Compact(ctx, "dev", []byte(`{"version":2,"seq":2,"resources":[]}`)))
	mustDo(t, u.Unlock(ctx))
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.accepted != 2 {
		t.Errorf("the command made %d connections, want 2 (the pool's and the lock's)", p.accepted)
	}
}

// waitUnlocked waits until no session of the database at url holds an
// advisory lock: the server has ended the session of a cut connection,
// as a restart would have, before its client notices the cut.
func waitUnlocked(t *testing.T, url string) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Error(err)
		return
	}
	defer conn.Close(ctx)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		var n int
		err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
			AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(&n)
		if err != nil || n == 0 {
			return
		}
	}
	t.Error("the cut connection's session still holds its lock after 20s")
}

// TestJournalCompressedWithLZ4: on a server that has lz4 (PostgreSQL 14
// and later, built with it, as the test server is), the journal's
// batches and the snapshots are compressed with it.
func TestJournalCompressedWithLZ4(t *testing.T) {
	b := open(t)
	var lz4 bool
	conn := connect(t, b)
	ctx := context.Background()
	if err := conn.QueryRow(ctx, "SELECT count(*) > 0 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)").Scan(&lz4); err != nil {
		t.Fatal(err)
	}
	if !lz4 {
		t.Skip("the server has no lz4")
	}
	rows, err := conn.Query(ctx, `SELECT attrelid::regclass::text || '.' || attname || ' ' || attcompression::text FROM pg_attribute
		WHERE attrelid IN ('plinth_journal'::regclass, 'plinth_snapshots'::regclass) AND attname IN ('records', 'data', 'previous') ORDER BY 1`)
	mustDo(t, err)
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	mustDo(t, err)
	want := []string{"plinth_journal.data ", "plinth_journal.records l", "plinth_snapshots.data l", "plinth_snapshots.previous l"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the columns' compression (-want +got):\n%s", diff)
	}
}

// TestAppendAcrossServerRestart restarts the server while an append on
// the lock's connection is in its transaction (a trigger stalls it, the
// first time only): the batch was not committed, the append takes the
// lock again once the server is back, stores the batch and reports
// state.ErrInterrupted; the journal holds it exactly once, after the
// batch before it.
func TestAppendAcrossServerRestart(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	exec(t, b, "CREATE SEQUENCE stall_once")
	exec(t, b, `CREATE FUNCTION stall() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN IF 'stall'::bytea = ANY(NEW.records) AND nextval('stall_once') = 1 THEN PERFORM pg_sleep(60); END IF; RETURN NEW; END $$`)
	exec(t, b, `CREATE TRIGGER stall BEFORE INSERT ON plinth_journal FOR EACH ROW EXECUTE FUNCTION stall()`)
	u, err := b.Lock(ctx, "dev", state.CurrentProcess("test"))
	mustDo(t, err)
	defer u.Unlock(ctx)
	first, batch := records(1, 2), append(records(3, 2), []byte("stall"))
	mustDo(t, b.AppendJournal(ctx, "dev", first))
	done := make(chan error, 1)
	go func() { done <- b.AppendJournal(ctx, "dev", batch) }()
	conn := connect(t, b)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var n int
		mustDo(t, conn.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND datname = current_database()").Scan(&n))
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the append never stalled")
		}
	}
	mustDo(t, pgtest.Shared(t).Restart())
	if err := <-done; !errors.Is(err, state.ErrInterrupted) {
		t.Fatalf("the append across the restart: error = %v, want one matching state.ErrInterrupted", err)
	}
	// Read through b: its pooled connection, used less than a second
	// ago, died with the server, and the pool replaces it before use.
	if diff := cmp.Diff(joined(first, batch), journalOf(t, b, "dev")); diff != "" {
		t.Errorf("the journal after the restart (-want +read):\n%s", diff)
	}
}
