package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A PostgreSQL server that restarts (or fails over) ends every session:
// the connections the pool keeps idle between statements are dead, and
// the first statement sent on one fails although nothing is wrong by
// then. pgxpool pings a connection before reuse only once it has been
// idle for a second, which a command's statements, a few milliseconds
// apart, never are. So shouldPing also pings a connection whose socket
// is not quiet: an idle session has nothing to say, so bytes waiting
// (the server's "terminating connection" notice) or the end of the
// stream mean the server has gone. The ping fails, the pool drops the
// connection and tries the next, then a new one: the statement runs on a
// live session, and was never sent on a dead one. The check costs no
// round trip (see quiet).

// pingAfter is how long a pooled connection may sit idle before it is
// pinged whatever its socket says (pgxpool's own default): a network
// that failed silently leaves the socket quiet.
const pingAfter = time.Second

// retry runs f, which runs statements on the pool, and runs it once
// more if its connection was lost and running it again is safe: when f
// only reads, or writes what it would write again the same
// (idempotent), or when nothing was sent (pgconn.SafeToRetry). A write
// the server may have run is never run again; its error goes to the
// caller. The check before reuse (shouldPing) leaves this for a
// connection lost between the check and the statement, or during it.
func retry(ctx context.Context, idempotent bool, f func() error) error {
	err := f()
	var ce *pgconn.ConnectError
	if err == nil || ctx.Err() != nil || errors.As(err, &ce) {
		return err // a new connection cannot be made: trying again now fails too
	}
	if pgconn.SafeToRetry(err) || idempotent && lostConn(err) {
		return f()
	}
	return err
}

// shouldPing reports whether the pool pings a connection before handing
// it out (pgxpool.Config.ShouldPing).
func shouldPing(_ context.Context, p pgxpool.ShouldPingParams) bool {
	return p.IdleDuration > pingAfter || !quiet(p.Conn.PgConn().Conn())
}

// UnreachableError is the error of a use of the backend while its
// database server cannot be reached: no connection could be made (the
// server is down, or the URL names the wrong host or port), or the one in
// use was lost.
type UnreachableError struct {
	// Addr is the server's address as the URL names it (host:port),
	// never its user or password.
	Addr string
	// Lost is set if a connection was lost during the statement, rather
	// than none made: the server may have run it.
	Lost bool
	Err  error
}

func (e *UnreachableError) Error() string {
	how := "check that the server is running and accepts connections there, and that the backend URL " +
		"(PLINTH_BACKEND, `backend:` in plinth.yaml or --backend) names the right host and port, then run the command again"
	if e.Lost {
		return fmt.Sprintf("the connection to the PostgreSQL server at %s was lost (%v); %s", e.Addr, e.Err, how)
	}
	return fmt.Sprintf("the PostgreSQL server at %s cannot be reached, so nothing was sent to it (%v); %s", e.Addr, e.Err, how)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// Diagnostic gives the error a summary for people (the display's
// interface).
func (e *UnreachableError) Diagnostic() (summary, where, path, detail string) {
	return "Database unreachable", "", "", ""
}

// unreachable wraps err in an *UnreachableError if it says the server
// could not be reached or the connection was lost.
func (b *Backend) unreachable(err error) error {
	var ce *pgconn.ConnectError
	var ue *UnreachableError
	switch {
	case err == nil, errors.As(err, &ue), errors.Is(err, context.Canceled): // an interrupted command, not a lost server
		return err
	case errors.As(err, &ce):
		return &UnreachableError{Addr: b.addr, Err: err}
	case lostConn(err):
		return &UnreachableError{Addr: b.addr, Lost: true, Err: err}
	}
	return err
}

// lostConn reports whether err means the connection is gone (the server
// ended the session, restarted, or the network failed), not that a
// statement failed.
func lostConn(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "57P") || strings.HasPrefix(pe.Code, "08")
	}
	var ne net.Error
	return pgconn.SafeToRetry(err) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &ne)
}

// serverAddr returns the host:port (or socket) of each server the URL
// names, for messages: never the user or password.
func serverAddr(raw string) string {
	cfg, err := pgconn.ParseConfig(raw)
	if err != nil {
		return "(the URL cannot be parsed)"
	}
	addrs := []string{hostPort(cfg.Host, cfg.Port)}
	for _, f := range cfg.Fallbacks {
		if a := hostPort(f.Host, f.Port); a != addrs[len(addrs)-1] {
			addrs = append(addrs, a)
		}
	}
	return strings.Join(addrs, ", ")
}

func hostPort(host string, port uint16) string {
	if strings.HasPrefix(host, "/") {
		return fmt.Sprintf("%s/.s.PGSQL.%d", host, port)
	}
	return net.JoinHostPort(host, strconv.Itoa(int(port)))
}
