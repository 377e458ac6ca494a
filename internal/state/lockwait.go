package state

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// LockWait says how long to wait for a stack's lock that another process
// holds, as terraform's -lock-timeout does, rather than failing at once.
type LockWait struct {
	// Timeout is how long to keep trying; 0 fails at once.
	Timeout time.Duration
	// Waiting, if set, is told once, when the lock is first found held
	// and the wait begins, so that the user knows whom they wait for.
	Waiting func(*LockedError)
}

// The pauses between attempts: doubled from lockRetryMin after each
// refusal up to lockRetryMax, with a little jitter so that many waiters
// do not all ask at the same instant.
const (
	lockRetryMin = 100 * time.Millisecond
	lockRetryMax = time.Second
)

// LockWaitError is a LockedError after a wait: the lock was still held
// when the timeout ran out, or its holder died. errors.As finds the
// *LockedError in it.
type LockWaitError struct {
	// Waited is the timeout, or how long plinth waited before it found
	// the holder dead.
	Waited time.Duration
	Locked *LockedError
}

func (e *LockWaitError) Error() string {
	return fmt.Sprintf("gave up after waiting %s: %s", e.Waited.Round(100*time.Millisecond), e.Locked)
}

// Unwrap returns the LockedError of the last attempt.
func (e *LockWaitError) Unwrap() error { return e.Locked }

// Diagnostic implements the display's interface.
func (e *LockWaitError) Diagnostic() (summary, where, path, detail string) {
	return "Stack is locked", "", "", e.Error()
}

// TakeLock takes the stack's lock for holder. While another process
// holds it, it tries again until w.Timeout has passed, pausing 100 ms at
// first and up to a second, then fails with a *LockWaitError naming the
// last holder. A lock whose holder is known dead (LockedError.Stale) is
// not waited for: it is never released by itself. A cancelled ctx ends
// the wait.
func TakeLock(ctx context.Context, l Locker, stack string, holder LockHolder, w LockWait) (Unlocker, error) {
	u, err := l.Lock(ctx, stack, holder)
	var locked *LockedError
	if err == nil || w.Timeout <= 0 || !errors.As(err, &locked) || locked.Stale {
		return u, err
	}
	if w.Waiting != nil {
		w.Waiting(locked)
	}
	start := time.Now()
	deadline := start.Add(w.Timeout)
	for delay := lockRetryMin; ; delay = min(2*delay, lockRetryMax) {
		pause := min(delay+rand.N(delay/5), time.Until(deadline))
		if pause <= 0 {
			return nil, &LockWaitError{Waited: w.Timeout, Locked: locked}
		}
		if err := pauseFor(ctx, pause); err != nil {
			return nil, fmt.Errorf("waiting for the lock of stack %s, held by %s: %w", stack, locked.Holder, err)
		}
		u, err = l.Lock(ctx, stack, holder)
		switch {
		case err == nil || !errors.As(err, &locked):
			return u, err
		case locked.Stale:
			return nil, &LockWaitError{Waited: time.Since(start), Locked: locked}
		}
	}
}

// pauseFor pauses for d, or until ctx is done.
func pauseFor(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
