package postgres_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/postgres"
)

// The lock of a command that sits idle while the server restarts: the
// restart ends the session holding the advisory lock, so the lock is
// free until the command notices. Its next append takes the lock again if
// no one else did, stores its records and says it was interrupted (the
// session then starts no new step); if another command took the lock
// meanwhile, the append stores nothing and says the lock was lost.

// TestLockHeldAcrossRestart: the lock is still the command's after the
// restart. The append regains it, stores the batch once and reports
// state.ErrInterrupted; Check then finds the lock held, another command
// is refused it, and Unlock frees it.
func TestLockHeldAcrossRestart(t *testing.T) {
	c := ownCluster(t)
	ctx := context.Background()
	url := newDatabase(t, c)
	b := openAs(t, url, "test")
	u, err := b.Lock(ctx, "dev", state.CurrentProcess("test"))
	mustDo(t, err)
	mustDo(t, b.AppendJournal(ctx, "dev", records(1, 2)))
	mustDo(t, c.Restart())
	if err := b.AppendJournal(ctx, "dev", records(3, 2)); !errors.Is(err, state.ErrInterrupted) {
		t.Fatalf("the first append after the restart: error = %v, want one matching state.ErrInterrupted", err)
	}
	if diff := cmp.Diff(strs(records(1, 4)), journalOf(t, b, "dev")); diff != "" {
		t.Errorf("the journal after the restart (-want +read):\n%s", diff)
	}
	mustDo(t, u.(state.LockChecker).Check(ctx))
	other := openAs(t, url, "test")
	var locked *state.LockedError
	if _, err := other.Lock(ctx, "dev", state.CurrentProcess("other")); !errors.As(err, &locked) {
		t.Fatalf("another command locking the stack the first regained: error = %v, want a *state.LockedError", err)
	}
	mustDo(t, b.AppendJournal(ctx, "dev", records(5, 1)))
	mustDo(t, u.Unlock(ctx))
	u2, err := other.Lock(ctx, "dev", state.CurrentProcess("other"))
	mustDo(t, err)
	mustDo(t, u2.Unlock(ctx))
}

// TestCompactAfterRestartWithLockHeld: the server restarts after the
// command's last append, as it finishes. Its check of the lock before
// compacting takes the lock again, the compaction and the unlock work,
// and the stack reads back compacted through the same backend.
func TestCompactAfterRestartWithLockHeld(t *testing.T) {
	c := ownCluster(t)
	ctx := context.Background()
	b := openAs(t, newDatabase(t, c), "test")
	u, err := b.Lock(ctx, "dev", state.CurrentProcess("test"))
	mustDo(t, err)
	mustDo(t, b.AppendJournal(ctx, "dev", records(1, 2)))
	mustDo(t, c.Restart())
	mustDo(t, u.(state.LockChecker).Check(ctx))
	const snap = `{"version":2,"seq":2,"resources":[]}`
	mustDo(t, b.Compact(ctx, "dev", []byte(snap)))
	mustDo(t, u.Unlock(ctx))
	if diff := cmp.Diff(snap, devSnapshot(t, b)); diff != "" {
		t.Errorf("the snapshot after compacting (-want +read):\n%s", diff)
	}
	if got := journalOf(t, b, "dev"); len(got) != 0 {
		t.Errorf("the journal after compacting holds %q", got)
	}
}

// TestLockTakenAcrossRestart: another command takes the lock the
// restart freed before the first command uses it again. The first
// command's append stores nothing and fails with state.ErrLockLost, as
// do its Check and Unlock; the other command's lock and holder row stay.
func TestLockTakenAcrossRestart(t *testing.T) {
	c := ownCluster(t)
	ctx := context.Background()
	url := newDatabase(t, c)
	b := openAs(t, url, "test")
	u, err := b.Lock(ctx, "dev", state.CurrentProcess("first"))
	mustDo(t, err)
	mustDo(t, b.AppendJournal(ctx, "dev", records(1, 2)))
	mustDo(t, c.Restart())
	other := openAs(t, url, "test")
	u2, err := other.Lock(ctx, "dev", state.CurrentProcess("second"))
	mustDo(t, err)
	for what, err := range map[string]error{
		"appending":         b.AppendJournal(ctx, "dev", records(3, 2)),
		"checking the lock": u.(state.LockChecker).Check(ctx),
		"unlocking":         u.Unlock(ctx),
	} {
		if !errors.Is(err, state.ErrLockLost) {
			t.Errorf("%s after another command took the lock: error = %v, want one matching state.ErrLockLost", what, err)
		}
	}
	if diff := cmp.Diff(strs(records(1, 2)), journalOf(t, other, "dev")); diff != "" {
		t.Errorf("the journal after the refused append (-want +read):\n%s", diff)
	}
	mustDo(t, u2.(state.LockChecker).Check(ctx))
	if n := count(t, other, "SELECT count(*) FROM plinth_locks WHERE stack = 'dev' AND command = 'second'"); n != 1 {
		t.Errorf("the second command's holder rows: %d, want 1", n)
	}
	mustDo(t, other.AppendJournal(ctx, "dev", records(3, 1)))
	mustDo(t, u2.Unlock(ctx))
}

// TestLockedAppendWhileServerDown: the server stops while a command
// holds the lock and does not come back while the append tries to regain
// it. The append fails saying the connection to the server (host and
// port) was lost, not that nothing was sent: the batch may have been.
func TestLockedAppendWhileServerDown(t *testing.T) {
	c := ownCluster(t)
	ctx := context.Background()
	b := openAs(t, newDatabase(t, c), "test")
	postgres.SetRegainFor(b, 500*time.Millisecond)
	u, err := b.Lock(ctx, "dev", state.CurrentProcess("test"))
	mustDo(t, err)
	defer u.Unlock(ctx)
	mustDo(t, b.AppendJournal(ctx, "dev", records(1, 2)))
	mustDo(t, c.StopServer())
	err = b.AppendJournal(ctx, "dev", records(3, 2))
	var ue *postgres.UnreachableError
	if !errors.As(err, &ue) || !ue.Lost || strings.Contains(err.Error(), "nothing was sent") || strings.Contains(err.Error(), secret) {
		t.Errorf("appending while the server is down: error = %v, want a *postgres.UnreachableError saying the connection was lost", err)
	}
}
