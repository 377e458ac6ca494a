package state_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/state"
)

// fakeLocker refuses the lock while held() says another holds it.
type fakeLocker struct {
	mu       sync.Mutex
	attempts int
	held     func(attempt int) *state.LockedError
}

func (f *fakeLocker) Lock(context.Context, string, state.LockHolder) (state.Unlocker, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.attempts++
	if l := f.held(f.attempts); l != nil {
		return nil, l
	}
	return noUnlock{}, nil
}

func (f *fakeLocker) ForceUnlock(context.Context, string) error { return nil }

type noUnlock struct{}

func (noUnlock) Unlock(context.Context) error { return nil }

var alice = state.LockHolder{PID: 123, Host: "build-7", User: "alice", Command: "plinth up", Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}

// heldUntil is held by alice until release has passed since the first
// attempt.
func heldUntil(release time.Duration) func(int) *state.LockedError {
	var start time.Time
	return func(int) *state.LockedError {
		if start.IsZero() {
			start = time.Now()
		}
		if time.Since(start) < release {
			return &state.LockedError{Stack: "dev", Holder: alice}
		}
		return nil
	}
}

func TestTakeLockWaits(t *testing.T) {
	tests := map[string]struct {
		held       func(int) *state.LockedError
		timeout    time.Duration
		wantErr    string // "" for success
		wantWaited bool   // whether Waiting was told
		maxTime    time.Duration
		maxTries   int
	}{
		"free at once": {held: heldUntil(0), timeout: time.Second, maxTime: 50 * time.Millisecond, maxTries: 1},
		"released while waiting": {held: heldUntil(300 * time.Millisecond), timeout: 3 * time.Second,
			wantWaited: true, maxTime: 1500 * time.Millisecond, maxTries: 5},
		"held past the timeout": {held: heldUntil(time.Hour), timeout: 400 * time.Millisecond,
			wantErr: "gave up after waiting 400ms: stack dev is locked by process 123 of user alice on host build-7", wantWaited: true, maxTime: time.Second, maxTries: 5},
		"no timeout fails at once": {held: heldUntil(time.Hour), wantErr: "stack dev is locked by process 123", maxTime: 50 * time.Millisecond, maxTries: 1},
		"a dead holder is not waited for": {held: func(int) *state.LockedError { return &state.LockedError{Stack: "dev", Holder: alice, Stale: true} },
			timeout: time.Minute, wantErr: "no longer running", maxTime: 50 * time.Millisecond, maxTries: 1},
		"the holder dies while waited for": {held: func(n int) *state.LockedError { return &state.LockedError{Stack: "dev", Holder: alice, Stale: n > 2} },
			timeout: time.Minute, wantErr: "gave up after waiting", wantWaited: true, maxTime: time.Second, maxTries: 3},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeLocker{held: tc.held}
			var told []state.LockHolder
			start := time.Now()
			u, err := state.TakeLock(context.Background(), f, "dev", state.CurrentProcess("plinth up"),
				state.LockWait{Timeout: tc.timeout, Waiting: func(l *state.LockedError) { told = append(told, l.Holder) }})
			took := time.Since(start)
			switch {
			case tc.wantErr == "" && (err != nil || u == nil):
				t.Fatalf("TakeLock = %v, %v; want the lock", u, err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("TakeLock error %v, want one saying %q", err, tc.wantErr)
			}
			var locked *state.LockedError
			if err != nil && (!errors.As(err, &locked) || locked.Holder != alice) {
				t.Errorf("the error %v holds no LockedError naming alice", err)
			}
			if (len(told) == 1) != tc.wantWaited || len(told) > 1 || tc.wantWaited && told[0] != alice {
				t.Errorf("Waiting was told %v; want alice once: %v", told, tc.wantWaited)
			}
			if took > tc.maxTime || f.attempts > tc.maxTries {
				t.Errorf("took %s and %d attempts, want at most %s and %d", took, f.attempts, tc.maxTime, tc.maxTries)
			}
		})
	}
}

func TestTakeLockStopsWhenCancelled(t *testing.T) {
	f := &fakeLocker{held: heldUntil(time.Hour)}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := state.TakeLock(ctx, f, "dev", state.CurrentProcess("plinth up"), state.LockWait{Timeout: time.Hour})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "held by process 123") || time.Since(start) > time.Second {
		t.Errorf("TakeLock after %s = %v; want the context's error naming the holder, soon", time.Since(start), err)
	}
}
