package postgres_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/postgres"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
	"github.com/plinth-iac/plinth/internal/state/statetest"
)

var processes = statetest.Processes{
	Address: func(b state.Backend) string { return b.(*postgres.Backend).URL() },
	Open: func(ctx context.Context, addr string) (state.Backend, error) {
		return postgres.Open(ctx, postgres.Config{URL: addr, Project: "test"})
	},
	ReleasedOnDeath: true,
}

func TestMain(m *testing.M) {
	statetest.ChildMain(processes)
	os.Exit(pgtest.Main(m))
}

// open returns a backend over a fresh database, closed when t ends.
func open(t *testing.T) *postgres.Backend {
	t.Helper()
	return openAs(t, pgtest.Database(t), "test")
}

// openAs opens the database at url for project, closed when t ends.
func openAs(t *testing.T, url, project string) *postgres.Backend {
	t.Helper()
	b, err := postgres.Open(context.Background(), postgres.Config{URL: url, Project: project})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// exec runs SQL on the backend's database over a connection of its own.
func exec(t *testing.T, b *postgres.Backend, sql string, args ...any) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, b.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func TestPostgresBackendConforms(t *testing.T) {
	statetest.Run(t, func(t *testing.T) state.Backend { return open(t) },
		statetest.WithProcesses(processes),
		statetest.WithLoseSnapshot(func(t *testing.T, b state.Backend, stack string) {
			exec(t, b.(*postgres.Backend), "DELETE FROM plinth_snapshots WHERE stack = $1", stack)
		}),
		statetest.WithInterruptedAppend(interruptAppend),
	)
}

// interruptAppend appends records, with a record "stall" third, with a
// trigger that stalls the insert of a row holding that record, and ends
// the server session running it while it stalls: the connection dies in
// the middle of the transaction.
func interruptAppend(t *testing.T, sb state.Backend, stack string, records [][]byte) error {
	b := sb.(*postgres.Backend)
	exec(t, b, `CREATE FUNCTION stall() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN IF 'stall'::bytea = ANY(NEW.records) THEN PERFORM pg_sleep(60); END IF; RETURN NEW; END $$`)
	exec(t, b, `CREATE TRIGGER stall BEFORE INSERT ON plinth_journal FOR EACH ROW EXECUTE FUNCTION stall()`)
	defer exec(t, b, "DROP TRIGGER stall ON plinth_journal")
	batch := append(append(append([][]byte{}, records[:2]...), []byte("stall")), records[2:]...)
	done := make(chan error, 1)
	go func() { done <- b.AppendJournal(context.Background(), stack, batch) }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		conn, err := pgx.Connect(context.Background(), b.URL())
		if err != nil {
			t.Fatal(err)
		}
		var n int
		err = conn.QueryRow(context.Background(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE wait_event = 'PgSleep' AND datname = current_database()`).Scan(&n)
		conn.Close(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return <-done
}

func connect(t *testing.T, b *postgres.Backend) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), b.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}
