package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/state"
)

// lockSpace is the first key of every stack's advisory lock ("plnt"); the
// second is a hash of the stack's name.
const lockSpace = 0x706c6e74

func lockKey(stack string) int32 {
	h := fnv.New32a()
	h.Write([]byte(stack))
	return int32(h.Sum32() & 0x7fffffff)
}

// Lock takes the stack's advisory lock on a connection of its own, which
// it keeps until Unlock, and records the holder in plinth_locks. If
// another session holds the lock, it fails at once with a
// *state.LockedError naming the holder from that row.
func (b *Backend) Lock(ctx context.Context, stack string, holder state.LockHolder) (state.Unlocker, error) {
	if err := state.ValidateStackName(stack); err != nil {
		return nil, err
	}
	conn, err := b.connect(ctx)
	if err != nil {
		return nil, b.fail("locking", stack, err)
	}
	l := &pgLock{b: b, conn: conn, stack: stack, token: newToken()}
	var got bool
	err = conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1, $2)", lockSpace, lockKey(stack)).Scan(&got)
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
	_, err := l.conn.Exec(ctx, `INSERT INTO plinth_locks (stack, token, pid, host, username, command, started, process_start, backend_pid)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, pg_backend_pid())
		ON CONFLICT (stack) DO UPDATE SET token = EXCLUDED.token, pid = EXCLUDED.pid, host = EXCLUDED.host,
			username = EXCLUDED.username, command = EXCLUDED.command, started = EXCLUDED.started,
			process_start = EXCLUDED.process_start, backend_pid = EXCLUDED.backend_pid`,
		l.stack, l.token, h.PID, h.Host, h.User, h.Command, h.Started, int64(h.ProcessStart))
	return err
}

// lockedError names the holder of a stack's lock. The holder writes its
// row just after taking the lock, so a missing row is retried briefly.
func (b *Backend) lockedError(ctx context.Context, stack string) error {
	var h state.LockHolder
	for range 20 {
		var start int64
		err := b.pool.QueryRow(ctx, `SELECT pid, host, username, command, started, process_start FROM plinth_locks WHERE stack = $1`, stack).
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
	if err := state.ValidateStackName(stack); err != nil {
		return err
	}
	_, err := b.pool.Exec(ctx, `SELECT pg_terminate_backend(pid, 10000) FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND classid = $1::int::oid AND objid = $2::int::oid AND objsubid = 2
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`, lockSpace, lockKey(stack))
	if err == nil {
		_, err = b.pool.Exec(ctx, "DELETE FROM plinth_locks WHERE stack = $1", stack)
	}
	return b.fail("breaking the lock", stack, err)
}

// pgLock is a lock this process holds: an open connection holding the
// advisory lock.
type pgLock struct {
	b            *Backend
	conn         *pgx.Conn
	stack, token string
}

var _ state.LockChecker = (*pgLock)(nil)

// Check asks the server whether the lock's session still holds the lock.
func (l *pgLock) Check(ctx context.Context) error {
	var held bool
	err := l.conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
		AND pid = pg_backend_pid() AND classid = $1::int::oid AND objid = $2::int::oid AND objsubid = 2)`, lockSpace, lockKey(l.stack)).Scan(&held)
	if err != nil || !held {
		why := "it was broken"
		if err != nil {
			why = fmt.Sprintf("the connection holding it failed (%v)", l.b.scrub(err))
		}
		return fmt.Errorf("the lock on stack %s in %s was lost while this command held it: %s; another command may have changed the stack since: %w",
			l.stack, l.b.shown, why, state.ErrLockLost)
	}
	return nil
}

// Unlock deletes the holder row, releases the advisory lock and closes
// the connection.
func (l *pgLock) Unlock(ctx context.Context) error {
	defer l.conn.Close(context.Background())
	if err := l.Check(ctx); err != nil {
		return err
	}
	_, err := l.conn.Exec(ctx, "DELETE FROM plinth_locks WHERE stack = $1 AND token = $2", l.stack, l.token)
	if err == nil {
		_, err = l.conn.Exec(ctx, "SELECT pg_advisory_unlock($1, $2)", lockSpace, lockKey(l.stack))
	}
	return l.b.fail("unlocking", l.stack, err)
}
