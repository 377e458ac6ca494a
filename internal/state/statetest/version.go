package statetest

import (
	"context"
	"testing"

	"github.com/plinth-iac/plinth/internal/state"
)

// testVersion checks the state version a saved plan is made against: a
// session opens at the version a load reads, a session that records
// nothing leaves it alone, and one that records something, or a new
// snapshot written behind plinth's back, changes it.
func testVersion(t *testing.T, b state.Backend) {
	ctx := context.Background()
	version := func() state.Version {
		t.Helper()
		_, v, err := state.LoadVersion(ctx, b, "dev", state.OpenOptions{Verify: true})
		must(t, err)
		return v
	}
	record := func(entries ...*state.Entry) state.Version {
		t.Helper()
		s, err := state.Open(ctx, b, "dev", state.OpenOptions{Command: "test"})
		must(t, err)
		at := s.Version()
		for _, e := range entries {
			must(t, s.Record(ctx, e))
		}
		must(t, s.Close(ctx))
		return at
	}
	empty := version()
	if got := record(); got != empty {
		t.Errorf("a session on an empty stack opened at %v, a load read %v", got, empty)
	}
	record(&state.Entry{Kind: state.Write, Op: state.OpCreate, New: provider()})
	one := version()
	if one == empty {
		t.Errorf("recording a resource left the version at %v", one)
	}
	if got := record(); got != one {
		t.Errorf("a session opened at %v, a load read %v", got, one)
	}
	if got := version(); got != one {
		t.Errorf("a session that recorded nothing moved the version from %v to %v", one, got)
	}
	snap, err := b.ReadSnapshot(ctx, "dev")
	must(t, err)
	data, err := state.EncodeSnapshot(&state.Snapshot{}, one.Seq, nil)
	must(t, err)
	must(t, b.WriteSnapshot(ctx, "dev", data))
	if got := version(); got == one || got.Seq != one.Seq {
		t.Errorf("a snapshot rewritten at the same sequence number: version %v, was %v; want the checksum to differ", got, one)
	}
	must(t, b.WriteSnapshot(ctx, "dev", snap))
	if got := version(); got != one {
		t.Errorf("the snapshot put back: version %v, want %v", got, one)
	}
}
