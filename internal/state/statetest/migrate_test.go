package statetest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
		if _, err := state.Migrate(ctx, from, to, "dev", state.MigrateOptions{}); !errors.As(err, &locked) {
			t.Errorf("migrating while the %s is locked: error = %v, want a *state.LockedError", name, err)
		}
		must(t, u.Unlock(ctx))
	}
	rep, err := state.Migrate(ctx, from, to, "dev", state.MigrateOptions{})
	must(t, err)
	if rep.SnapshotBytes == 0 {
		t.Errorf("report %+v: no snapshot copied", rep)
	}
	if _, err := from.Lock(ctx, "dev", state.CurrentProcess("x")); err != nil {
		t.Errorf("Migrate left the source locked: %v", err)
	}
}

// failingSnapshots is a memory backend whose snapshot writes fail, as a
// server that goes away mid-copy makes them.
type failingSnapshots struct{ *MemoryBackend }

func (failingSnapshots) WriteSnapshot(context.Context, string, []byte) error {
	return errors.New("connection refused")
}

// migrateSource returns a backend holding stack dev as SeedKilledStack
// writes it.
func migrateSource(t *testing.T) *MemoryBackend {
	t.Helper()
	from := NewMemoryBackend()
	SeedKilledStack(t, from)
	return from
}

// held is what a backend holds of stack dev.
type held struct {
	Secrets  string
	Snapshot bool
	Journal  int
	History  int
}

func holds(t *testing.T, b *MemoryBackend) held {
	t.Helper()
	ctx := context.Background()
	var h held
	if data, err := b.ReadSecretsConfig(ctx, "dev"); err == nil {
		h.Secrets = string(data)
	}
	_, err := b.ReadSnapshot(ctx, "dev")
	h.Snapshot = err == nil
	j, err := b.ReadJournal(ctx, "dev")
	must(t, err)
	hs, err := b.ReadHistory(ctx, "dev")
	must(t, err)
	h.Journal, h.History = len(j.Records), len(hs)
	return h
}

// TestMigrateLeavesAnothersStack: a first command on the target that
// creates the stack's secrets configuration after Migrate found the
// target empty (a first `plinth up` does so before it waits for the
// lock) keeps its key, whether or not the copy would have failed, and
// Migrate refuses naming the stack and where; a copy that fails on a
// target that held nothing is removed.
func TestMigrateLeavesAnothersStack(t *testing.T) {
	const upKey = `{"version":1,"key":"dXA="}`
	for name, c := range map[string]struct {
		firstUp   bool // a first up creates its key in the window
		failWrite bool // the target's snapshot writes fail
		wantErr   string
		want      held
	}{
		"a first up creates its key": {firstUp: true, wantErr: "already holds a secrets configuration for stack dev (the secrets configuration of stack dev (in memory)) that is not the source's",
			want: held{Secrets: upKey}},
		"a first up creates its key and the copy fails": {firstUp: true, failWrite: true, wantErr: "not the source's",
			want: held{Secrets: upKey}},
		"the copy fails on an empty target": {failWrite: true, wantErr: "writing the copy: connection refused",
			want: held{}},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			from, mem := migrateSource(t), NewMemoryBackend()
			var to state.Backend = mem
			if c.failWrite {
				to = failingSnapshots{mem}
			}
			hook := func(p state.Part) {
				if c.firstUp && p == state.PartSecrets {
					_, _, err := mem.CreateSecretsConfig(ctx, "dev", []byte(upKey))
					must(t, err)
				}
			}
			_, err := state.Migrate(ctx, from, to, "dev", state.MigrateOptions{BeforeWrite: hook})
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("Migrate: error = %v, want one saying %q", err, c.wantErr)
			}
			if diff := cmp.Diff(c.want, holds(t, mem)); diff != "" {
				t.Errorf("the target holds (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMigrateFinishesAPartialCopy: a target holding a part of the copy,
// in the order Migrate writes it (what a migrate killed part way
// leaves), is finished; one holding anything else is refused and left
// as it is.
func TestMigrateFinishesAPartialCopy(t *testing.T) {
	ctx := context.Background()
	full := holds(t, migrateSource(t))
	if !full.Snapshot || full.Journal != 1 || full.History != 1 {
		t.Fatalf("the source holds %+v, want a snapshot, a journal record and a history record", full)
	}
	for name, c := range map[string]struct {
		prepare func(from, to *MemoryBackend)
		wantErr string // "" for success
		want    held
	}{
		"the secrets configuration only":  {prepare: func(from, to *MemoryBackend) { copyParts(t, from, to, false) }, want: full},
		"all but the journal and history": {prepare: func(from, to *MemoryBackend) { copyParts(t, from, to, true) }, want: full},
		"another's journal after the copy's snapshot": {
			prepare: func(from, to *MemoryBackend) {
				copyParts(t, from, to, true)
				must(t, to.AppendJournal(ctx, "dev", [][]byte{[]byte(`{"kind":"other"}`)}))
			},
			wantErr: "not a copy of the source's", want: held{Secrets: full.Secrets, Snapshot: true, Journal: 1},
		},
		"a snapshot without the secrets configuration": {
			prepare: func(from, to *MemoryBackend) {
				data, err := from.ReadSnapshot(ctx, "dev")
				must(t, err)
				must(t, to.WriteSnapshot(ctx, "dev", data))
			},
			wantErr: "not a copy of the source's", want: held{Snapshot: true},
		},
	} {
		t.Run(name, func(t *testing.T) {
			from, to := migrateSource(t), NewMemoryBackend()
			c.prepare(from, to)
			rep, err := state.Migrate(ctx, from, to, "dev", state.MigrateOptions{})
			switch {
			case c.wantErr == "" && (err != nil || !rep.Resumed):
				t.Errorf("Migrate: %+v, %v; want it to finish the copy", rep, err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("Migrate: error = %v, want one saying %q", err, c.wantErr)
			}
			if diff := cmp.Diff(c.want, holds(t, to)); diff != "" {
				t.Errorf("the target holds (-want +got):\n%s", diff)
			}
		})
	}
}

// copyParts copies the source's secrets configuration to the target,
// and its snapshot if snapshot.
func copyParts(t *testing.T, from, to *MemoryBackend, snapshot bool) {
	t.Helper()
	ctx := context.Background()
	data, err := from.ReadSecretsConfig(ctx, "dev")
	must(t, err)
	must(t, to.WriteSecretsConfig(ctx, "dev", data))
	if snapshot {
		data, err := from.ReadSnapshot(ctx, "dev")
		must(t, err)
		must(t, to.WriteSnapshot(ctx, "dev", data))
	}
}
