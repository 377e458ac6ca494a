package statetest

import (
	"context"
	"testing"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// SeedKilledStack writes stack dev of project proj to b as a command
// killed part way leaves it: a secrets configuration (a generated key),
// a snapshot, a journal record after it, and a history record. The
// parts are made by sessions over a scratch backend and written to b
// directly, so that nothing is still being written to b (a session's
// mark is recorded after its append returns) when SeedKilledStack
// returns.
func SeedKilledStack(t testing.TB, b state.Backend) {
	t.Helper()
	ctx := context.Background()
	scratch := NewMemoryBackend()
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	s, err := state.Open(ctx, scratch, "dev", state.OpenOptions{})
	check(err)
	check(s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: provider()}))
	check(s.Close(ctx))
	s, err = state.Open(ctx, scratch, "dev", state.OpenOptions{})
	check(err)
	check(s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpOutputs, Outputs: resource.Object{"n": resource.NewString("1")}}))
	snap, err := scratch.ReadSnapshot(ctx, "dev")
	check(err)
	j, err := scratch.ReadJournal(ctx, "dev")
	check(err)
	_, _, err = b.CreateSecretsConfig(ctx, "dev", []byte(`{"version":1,"key":"c291cmNl"}`))
	check(err)
	check(b.WriteSnapshot(ctx, "dev", snap))
	check(b.AppendJournal(ctx, "dev", j.Records))
	if hs, ok := b.(state.HistoryStore); ok {
		check(hs.AppendHistory(ctx, "dev", []byte(`{"id":"op1","kind":"update","result":"succeeded"}`)))
	}
}
