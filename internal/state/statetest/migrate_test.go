package statetest

import (
	"context"
	"errors"
	"testing"

	"github.com/plinth-iac/plinth/internal/state"
)

// TestMigrateHoldsBothLocks: Migrate refuses while either backend's
// stack is locked by another command, and copies once both are free.
func TestMigrateHoldsBothLocks(t *testing.T) {
	ctx := context.Background()
	from, to := NewMemoryBackend(), NewMemoryBackend()
	s, err := state.Open(ctx, from, "dev", state.OpenOptions{})
	must(t, err)
	must(t, s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: provider()}))
	must(t, s.Close(ctx))
	for name, b := range map[string]*MemoryBackend{"source": from, "target": to} {
		u, err := b.Lock(ctx, "dev", state.CurrentProcess("plinth up"))
		must(t, err)
		var locked *state.LockedError
		if _, err := state.Migrate(ctx, from, to, "dev"); !errors.As(err, &locked) {
			t.Errorf("migrating while the %s is locked: error = %v, want a *state.LockedError", name, err)
		}
		must(t, u.Unlock(ctx))
	}
	rep, err := state.Migrate(ctx, from, to, "dev")
	must(t, err)
	if rep.SnapshotBytes == 0 {
		t.Errorf("report %+v: no snapshot copied", rep)
	}
	if _, err := from.Lock(ctx, "dev", state.CurrentProcess("x")); err != nil {
		t.Errorf("Migrate left the source locked: %v", err)
	}
}
