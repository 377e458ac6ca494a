package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/plinth-iac/plinth/internal/state"
)

// lockSpace is the first key of every stack's advisory lock ("plnt"); the
// second is a hash of the project's and the stack's names, so that two
// projects' stacks of one name do not keep each other waiting.
const lockSpace = 0x706c6e74

func lockKey(project, stack string) int32 {
	h := fnv.New32a()
	h.Write([]byte(project))
	h.Write([]byte{0})
	h.Write([]byte(stack))
	return int32(h.Sum32() & 0x7fffffff)
}

// key is the second key of the advisory lock of the project's stack.
func (b *Backend) key(stack string) int32 { return lockKey(b.project, stack) }

// Lock takes the stack's advisory lock on a connection of its own, which
// it keeps until Unlock, and records the holder in plinth_locks. If
// another session holds the lock, it fails at once with a
// *state.LockedError naming the holder from that row.
func (b *Backend) Lock(ctx context.Context, stack string, holder state.LockHolder) (state.Unlocker, error) {
	if err := b.check(ctx, stack); err != nil {
		return nil, err
	}
	conn, err := b.connect(ctx)
	if err != nil {
		return nil, b.fail("locking", stack, err)
	}
	l := &pgLock{b: b, conn: conn, stack: stack, token: newToken()}
	var got bool
	err = conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1, $2)", lockSpace, b.key(stack)).Scan(&got)
	if err == nil && !got {
		conn.Close(context.Background())
		return nil, b.lockedError(ctx, stack)
	}
	if err == nil {
		err = l.record(ctx, holder)
	}
	if err != nil {
		conn.Close(context.Background())
		return nil, b.fail("locking", stack, err)
	}
	b.mu.Lock()
	b.locks[stack] = l
	b.mu.Unlock()
	return l, nil
}

func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// record writes the holder row, replacing one left by a holder whose
// connection died.
func (l *pgLock) record(ctx context.Context, h state.LockHolder) error {
	_, err := l.conn.Exec(ctx, `INSERT INTO plinth_locks (project, stack, token, pid, host, username, command, started, process_start, backend_pid)
		VALUES ($9, $1, $2, $3, $4, $5, $6, $7, $8, pg_backend_pid())
		ON CONFLICT (project, stack) DO UPDATE SET token = EXCLUDED.token, pid = EXCLUDED.pid, host = EXCLUDED.host,
			username = EXCLUDED.username, command = EXCLUDED.command, started = EXCLUDED.started,
			process_start = EXCLUDED.process_start, backend_pid = EXCLUDED.backend_pid`,
		l.stack, l.token, h.PID, h.Host, h.User, h.Command, h.Started, int64(h.ProcessStart), l.b.project)
	return err
}

// lockedError names the holder of a stack's lock. The holder writes its
// row just after taking the lock, so a missing row is retried briefly.
func (b *Backend) lockedError(ctx context.Context, stack string) error {
	var h state.LockHolder
	for range 20 {
		var start int64
		err := b.pool.QueryRow(ctx, `SELECT pid, host, username, command, started, process_start FROM plinth_locks
			WHERE project = $1 AND stack = $2`, b.project, stack).
			Scan(&h.PID, &h.Host, &h.User, &h.Command, &h.Started, &start)
		if err == nil {
			h.ProcessStart, h.Started = uint64(start), h.Started.UTC()
			break
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	live := state.HolderLiveness(h)
	return &state.LockedError{Stack: stack, Holder: h, Stale: live == state.LivenessDead, Alive: live == state.LivenessAlive}
}

// ForceUnlock ends the server session that holds the stack's advisory
// lock (its client is gone but the server has not noticed) and deletes
// the holder row.
func (b *Backend) ForceUnlock(ctx context.Context, stack string) error {
	if err := b.check(ctx, stack); err != nil {
		return err
	}
	_, err := b.pool.Exec(ctx, `SELECT pg_terminate_backend(pid, 10000) FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND classid = $1::int::oid AND objid = $2::int::oid AND objsubid = 2
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`, lockSpace, b.key(stack))
	if err == nil {
		_, err = b.pool.Exec(ctx, "DELETE FROM plinth_locks WHERE project = $1 AND stack = $2", b.project, stack)
	}
	return b.fail("breaking the lock", stack, err)
}

// pgLock is a lock this process holds: an open connection holding the
// advisory lock. The stack's journal is written on it.
type pgLock struct {
	b            *Backend
	stack, token string

	mu   sync.Mutex // guards conn, which is not safe for concurrent use, and mark
	conn *pgx.Conn
	// mark is what the stack's plinth_marks row holds, as the last
	// statement on conn that wrote it left it; nil if not known.
	mark *rowMark
}

var _ state.LockChecker = (*pgLock)(nil)

// dbConn is what the backend runs SQL on: a pooled connection, or a
// lock's own.
type dbConn interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Begin(ctx context.Context) (pgx.Tx, error)
}

// onLock runs f on the connection of the stack's lock if this backend
// holds it, else on a pooled connection.
func (b *Backend) onLock(ctx context.Context, stack string, f func(dbConn) error) error {
	b.mu.Lock()
	l := b.locks[stack]
	b.mu.Unlock()
	if l == nil {
		return f(b.pool)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return f(l.conn)
}

// append appends records on the lock's connection. If the connection
// is lost, it takes the lock again on a new one, provided no one else
// took it meanwhile, stores the records unless they were committed
// already, and returns an error matching state.ErrInterrupted: the
// operation must stop starting steps.
func (l *pgLock) append(ctx context.Context, records [][]byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var err error
	l.mark, err = appendRecords(ctx, l.conn, l.b.project, l.stack, records)
	if err == nil || !connLost(l.conn, err) {
		return err
	}
	lost := l.b.scrub(err)
	if err := l.regain(ctx); err != nil {
		err = fmt.Errorf("%v, and %w", lost, err)
		if errors.Is(err, state.ErrLockLost) {
			return err
		}
		// The server is still out of reach: say so, and not that nothing
		// was sent, for the batch may have been committed.
		return &UnreachableError{Addr: l.b.addr, Lost: true, Err: err}
	}
	ok, err := stored(ctx, l.conn, l.b.project, l.stack, records)
	if err == nil && !ok {
		l.mark, err = appendRecords(ctx, l.conn, l.b.project, l.stack, records)
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("%w (%v)", state.ErrInterrupted, lost)
}

// connLost reports whether err means the connection is gone (the server
// restarted or the network failed), not that a statement failed.
func connLost(conn *pgx.Conn, err error) bool {
	return conn.IsClosed() || lostConn(err)
}

// regain takes the lock again on a new connection, trying for a while if
// the server is unreachable. It fails with state.ErrLockLost if another
// command took the lock, or broke it, while the connection was down.
func (l *pgLock) regain(ctx context.Context) error {
	deadline := time.Now().Add(l.b.regainFor)
	for {
		err := l.tryRegain(ctx)
		if err == nil || errors.Is(err, state.ErrLockLost) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func (l *pgLock) tryRegain(ctx context.Context) error {
	conn, err := l.b.connect(ctx)
	if err != nil {
		return err
	}
	var got bool
	var token string
	err = conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1, $2)", lockSpace, l.b.key(l.stack)).Scan(&got)
	if err == nil && got {
		err = conn.QueryRow(ctx, "SELECT token FROM plinth_locks WHERE project = $1 AND stack = $2", l.b.project, l.stack).Scan(&token)
	}
	switch {
	case err == nil && !got:
		err = fmt.Errorf("another command took the lock while the connection was down: %w", state.ErrLockLost)
	case (err == nil || errors.Is(err, pgx.ErrNoRows)) && token != l.token:
		err = fmt.Errorf("the lock was broken while the connection was down: %w", state.ErrLockLost)
	case err == nil:
		_, err = conn.Exec(ctx, "UPDATE plinth_locks SET backend_pid = pg_backend_pid() WHERE project = $1 AND stack = $2", l.b.project, l.stack)
	}
	if err != nil {
		conn.Close(context.Background())
		return err
	}
	l.conn.Close(context.Background())
	l.conn = conn
	return nil
}

// Check asks the server whether the lock's session still holds the lock,
// taking it again if the connection was lost and no one else took it.
func (l *pgLock) Check(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.check(ctx)
}

func (l *pgLock) check(ctx context.Context) error {
	var held bool
	err := l.conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
		AND pid = pg_backend_pid() AND classid = $1::int::oid AND objid = $2::int::oid AND objsubid = 2)`, lockSpace, l.b.key(l.stack)).Scan(&held)
	if err != nil && connLost(l.conn, err) {
		rerr := l.regain(ctx)
		if rerr == nil {
			return nil
		}
		err = fmt.Errorf("%v, and %w", err, rerr)
	}
	if err != nil || !held {
		why := "it was broken"
		if err != nil {
			why = fmt.Sprintf("the connection holding it failed (%v)", l.b.scrub(err))
		}
		return fmt.Errorf("the lock on stack %s of project %s in %s was lost while this command held it: %s; another command may have changed the stack since: %w",
			l.stack, l.b.project, l.b.shown, why, state.ErrLockLost)
	}
	return nil
}

// Unlock deletes the holder row, releases the advisory lock and closes
// the connection.
func (l *pgLock) Unlock(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.mu.Lock()
	if l.b.locks[l.stack] == l {
		delete(l.b.locks, l.stack)
	}
	l.b.mu.Unlock()
	defer l.conn.Close(context.Background())
	if err := l.check(ctx); err != nil {
		return err
	}
	_, err := l.conn.Exec(ctx, "DELETE FROM plinth_locks WHERE project = $1 AND stack = $2 AND token = $3", l.b.project, l.stack, l.token)
	if err == nil {
		_, err = l.conn.Exec(ctx, "SELECT pg_advisory_unlock($1, $2)", lockSpace, l.b.key(l.stack))
	}
	return l.b.fail("unlocking", l.stack, err)
}
