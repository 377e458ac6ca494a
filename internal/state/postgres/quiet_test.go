package postgres

import (
	"context"
	"net"
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

// TestQuietBesideAParkedReader: the peek neither waits for nor disturbs
// a read that is waiting on the same socket, as pgx's background reader
// waits after a slow write. The peek used to take the descriptor's read
// lock and wait as long as that read did (a `plinth up` hung for good on
// a loaded machine).
func TestQuietBesideAParkedReader(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	read := make(chan string, 1)
	go func() {
		b := make([]byte, 16)
		n, _ := client.Read(b)
		read <- string(b[:n])
	}()
	time.Sleep(50 * time.Millisecond) // let the read park
	done := make(chan bool, 1)
	go func() { done <- quiet(client) }()
	select {
	case q := <-done:
		if !q {
			t.Error("a socket with nothing to read is not quiet")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the peek waited for the parked read")
	}
	if _, err := server.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	if got := <-read; got != "hello" {
		t.Errorf("the parked read got %q, want hello", got)
	}
}
