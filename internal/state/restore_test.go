package state_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
)

// TestRestoreBackupJudgesTheCurrentStateAsTheLoaderDoes: a snapshot that
// decodes but fails the loader's integrity check is as unusable as one
// that does not decode, so restore-backup restores the backup without
// --force instead of saying the current state "reads cleanly"; a current
// state the loader accepts still needs --force.
func TestRestoreBackupJudgesTheCurrentStateAsTheLoaderDoes(t *testing.T) {
	ctx := context.Background()
	tests := map[string]struct {
		current   *state.Snapshot
		wantError string // "" when the backup is restored
	}{
		"current fails the integrity check": {
			current: &state.Snapshot{Resources: []*state.Resource{prov(), thing("a", "")}}, // a custom resource without an ID
		},
		"current loads": {
			current:   &state.Snapshot{Resources: []*state.Resource{prov(), thing("a", "a-9")}},
			wantError: "reads cleanly",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			b := file.New(t.TempDir())
			s := open(t, b)
			record(t, s, entry(0, state.Write, state.OpCreate, nil, prov()), entry(0, state.Write, state.OpCreate, nil, thing("a", "a-1")))
			must(t, s.Close(ctx))
			// The content changes, the mark does not, so that only the
			// integrity check can refuse it; the good snapshot becomes
			// the backup.
			good, err := b.ReadSnapshot(ctx, "dev")
			must(t, err)
			data, err := state.EncodeInPlaceForTest(tc.current, good)
			must(t, err)
			must(t, b.WriteSnapshot(ctx, "dev", data))
			_, loadErr := state.Load(ctx, b, "dev", state.OpenOptions{Verify: true})

			r, err := state.RestoreBackup(ctx, b, "dev", state.RestoreOptions{})
			if tc.wantError != "" {
				if loadErr != nil || err == nil || !strings.Contains(err.Error(), tc.wantError) {
					t.Fatalf("load: %v; restore: %v, want an error saying %q", loadErr, err, tc.wantError)
				}
				return
			}
			if loadErr == nil {
				t.Fatal("the damaged current state loads; the test needs one the loader refuses")
			}
			if err != nil {
				t.Fatalf("restore-backup over a state the loader refuses (%v): %v", loadErr, err)
			}
			got, err := state.Load(ctx, b, "dev", state.OpenOptions{Verify: true})
			must(t, err)
			if diff := cmp.Diff([]string{"default=p-1", "a=a-1"}, summary(got)); diff != "" || r.Resources != 2 {
				t.Errorf("restored %d resources; state (-want +got):\n%s", r.Resources, diff)
			}
		})
	}
}
