package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/postgres"
	"github.com/plinth-iac/plinth/internal/state/statetest"
)

// TestMigrateServerStoppedMidCopy stops the target's server after
// migrate wrote the secrets configuration and the snapshot. Migrate
// fails, cannot remove the part copied, and says to run it again; the
// source is untouched, and migrate run again once the server is back
// finishes the copy, which loads.
func TestMigrateServerStoppedMidCopy(t *testing.T) {
	ctx := context.Background()
	c := ownCluster(t)
	to, err := postgres.Open(ctx, postgres.Config{URL: newDatabase(t, c), Project: "proj"})
	mustDo(t, err)
	defer to.Close()
	postgres.SetRegainFor(to, time.Second)
	from := statetest.NewMemoryBackend()
	statetest.SeedKilledStack(t, from)
	want, err := from.ReadSnapshot(ctx, "dev")
	mustDo(t, err)
	stop := func(p state.Part) {
		if p == state.PartJournal {
			mustDo(t, c.StopServer())
		}
	}
	_, err = state.Migrate(ctx, from, to, "dev", state.MigrateOptions{BeforeWrite: stop})
	if err == nil || !strings.Contains(err.Error(), "run migrate again to finish the copy") {
		t.Fatalf("Migrate with the server stopped: error = %v, want one saying to run it again", err)
	}
	mustDo(t, c.Restart())
	if got, err := from.ReadSnapshot(ctx, "dev"); err != nil || string(got) != string(want) {
		t.Errorf("the source's snapshot changed (%v)", err)
	}
	rep, err := state.Migrate(ctx, from, to, "dev", state.MigrateOptions{})
	if err != nil || !rep.Resumed || rep.JournalRecords != 1 {
		t.Fatalf("Migrate run again: %+v, %v; want it to finish the copy of a journal record", rep, err)
	}
	if _, err := state.Load(ctx, to, "dev", state.OpenOptions{Verify: true}); err != nil {
		t.Errorf("the copy does not load: %v", err)
	}
}
