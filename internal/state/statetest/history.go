package statetest

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state"
)

// testHistory records operations through sessions and reads them back:
// one that changed something, one never finished (not recorded), one
// that changed nothing, and one that never closed (killed).
func testHistory(t *testing.T, b state.Backend) {
	ctx := context.Background()
	if _, ok := b.(state.HistoryStore); !ok {
		t.Fatal("the backend keeps no update history (state.HistoryStore)")
	}
	up := state.NewOperation("update", "1.2.3")
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{History: up})
	must(t, err)
	must(t, s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: provider()}))
	s.Finish(state.ResultSucceeded, map[string]int{"create": 1, "same": 2})
	must(t, s.Close(ctx))
	refused := state.NewOperation("destroy", "1.2.3")
	s, err = state.Open(ctx, b, "dev", state.OpenOptions{History: refused})
	must(t, err)
	must(t, s.Close(ctx)) // never finished, nothing recorded: not history
	noop := state.NewOperation("update", "1.2.3")
	s, err = state.Open(ctx, b, "dev", state.OpenOptions{History: noop})
	must(t, err)
	s.Finish(state.ResultSucceeded, map[string]int{"same": 3})
	must(t, s.Close(ctx))
	killed := state.NewOperation("refresh", "1.2.4")
	must(t, state.AppendOperation(ctx, b, "dev", killed))
	ops, err := state.History(ctx, b, "dev")
	must(t, err)
	type row struct {
		Kind, Result, Version string
		Ended                 bool
		Steps                 map[string]int
	}
	var got []row
	for _, op := range ops {
		got = append(got, row{op.Kind, op.Result, op.Version, op.Ended != nil, op.Steps})
		if op.User == "" && op.Host == "" || op.Started.IsZero() {
			t.Errorf("operation %s records no user, host or start: %+v", op.Kind, op)
		}
	}
	want := []row{
		{"update", state.ResultSucceeded, "1.2.3", true, map[string]int{"create": 1, "same": 2}},
		{"update", state.ResultSucceeded, "1.2.3", true, map[string]int{"same": 3}},
		{"refresh", state.ResultUnfinished, "1.2.4", false, nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
	if ops, err := state.History(ctx, b, "prod"); err != nil || len(ops) != 0 {
		t.Errorf("another stack's history: %v, %v; want none", ops, err)
	}
	must(t, b.RemoveStack(ctx, "dev"))
	if ops, err := state.History(ctx, b, "dev"); err != nil || len(ops) != 0 {
		t.Errorf("a removed stack's history: %d operations, %v; want none", len(ops), err)
	}
}
