package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
)

// TestQuiet: a live session that answered its last statement is quiet,
// and peeking leaves it usable; one the server ended (as a restart ends
// every session) is not.
func TestQuiet(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Database(t)
	connect := func() *pgx.Conn {
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close(ctx) })
		return conn
	}
	live, ended := connect(), connect()
	var pid uint32
	if err := ended.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // a peek takes nothing away
		if !quiet(live.PgConn().Conn()) {
			t.Errorf("a live idle session is not quiet (peek %d)", i+1)
		}
	}
	if _, err := live.Exec(ctx, "SELECT pg_terminate_backend($1)", pid); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); quiet(ended.PgConn().Conn()); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a session the server ended is still quiet after 10s")
		}
	}
	if _, err := live.Exec(ctx, "SELECT 1"); err != nil {
		t.Errorf("the session peeked at: %v", err)
	}
}
