package file_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// faultStack builds a stack on disk as two crashed runs leave it: a
// snapshot holding resources, secrets and a pending create, and a journal
// of later steps that were never compacted.
func faultStack(t *testing.T, root string) state.Crypter {
	ctx := context.Background()
	b := file.New(root)
	c, _, err := secrets.Open(ctx, b, "dev", secrets.Options{})
	must(t, err)
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	a := thing("a", "a-1")
	a.Outputs = resource.Object{"password": resource.MakeSecret(resource.NewString("hunter2")), "size": resource.NewNumber(3)}
	s1, err := state.Open(ctx, b, "dev", state.OpenOptions{Crypter: c})
	must(t, err)
	record(t, s1,
		&state.Entry{Kind: state.Write, Op: state.OpCreate, New: prov(), Time: at},
		&state.Entry{Step: 1, Kind: state.Begin, Op: state.OpCreate, New: thing("a", ""), Time: at},
		&state.Entry{Step: 1, Kind: state.End, Op: state.OpCreate, New: a, Time: at},
		&state.Entry{Step: 2, Kind: state.Begin, Op: state.OpCreate, New: thing("b", ""), Time: at},
	)
	must(t, b.ForceUnlock(ctx, "dev")) // the first crash
	s2, err := state.Open(ctx, b, "dev", state.OpenOptions{Crypter: c})
	must(t, err) // recovers: the snapshot now holds the pending create of b
	a2 := a.Clone()
	a2.Outputs["size"] = resource.NewNumber(4)
	record(t, s2,
		&state.Entry{Step: 1, Kind: state.Begin, Op: state.OpUpdate, Old: a, New: a2, Time: at},
		&state.Entry{Step: 1, Kind: state.End, Op: state.OpUpdate, Old: a, New: a2, Time: at},
		&state.Entry{Step: 2, Kind: state.Begin, Op: state.OpCreate, New: thing("c", ""), Time: at},
		&state.Entry{Step: 2, Kind: state.End, Op: state.OpCreate, New: thing("c", "c-1"), Time: at},
		&state.Entry{Kind: state.Write, Op: state.OpOutputs, Outputs: resource.Object{"token": resource.MakeSecret(resource.NewString("s3cr3t"))}, Time: at},
	)
	must(t, b.ForceUnlock(ctx, "dev")) // the second crash
	return c
}

// faultOutcome is what loading a damaged stack did.
type faultOutcome int

const (
	faultError    faultOutcome = iota // refused with an error
	faultWarned                       // loaded, with a warning saying what was dropped
	faultHarmless                     // loaded the same state, without a word
	faultSilent                       // loaded a different state without a word: a failure
)

func loadFaulted(root string, c state.Crypter, want *state.Snapshot) (faultOutcome, string) {
	var warned []string
	got, err := state.Load(context.Background(), file.New(root), "dev", state.OpenOptions{
		Crypter: c, Verify: true, Warn: func(s string) { warned = append(warned, s) }})
	switch {
	case err != nil:
		return faultError, err.Error()
	case len(warned) > 0:
		return faultWarned, warned[0]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		return faultSilent, diff
	}
	return faultHarmless, ""
}

// TestFaultInjection flips single bytes of, and truncates, the snapshot
// and the journal of a real stack, and loads it after each change: every
// change must be refused with an error, reported with a warning, or leave
// the loaded state (and so the plan) exactly as it was.
func TestFaultInjection(t *testing.T) {
	root := t.TempDir()
	c := faultStack(t, root)
	want, err := state.Load(context.Background(), file.New(root), "dev", state.OpenOptions{Crypter: c, Verify: true})
	must(t, err)
	if len(want.Resources) != 3 || len(want.Pending) != 1 || !want.Outputs["token"].IsSecret() {
		t.Fatalf("the stack is not what the test needs: %v", names(want))
	}
	rng := rand.New(rand.NewPCG(8, 2026))
	counts := map[string]map[faultOutcome]int{}
	for _, part := range []state.Part{state.PartSnapshot, state.PartJournal} {
		path := file.New(root).Describe("dev", part)
		orig, err := os.ReadFile(path)
		must(t, err)
		if len(orig) < 100 {
			t.Fatalf("%s holds only %d bytes", path, len(orig))
		}
		for i := range 150 + 30 {
			bad, what := bytes.Clone(orig), ""
			if i < 150 {
				at := rng.IntN(len(orig))
				bad[at] ^= byte(1 + rng.IntN(255))
				what = fmt.Sprintf("flip byte %d", at)
			} else {
				bad = bad[:rng.IntN(len(orig))]
				what = fmt.Sprintf("truncate to %d bytes", len(bad))
			}
			must(t, os.WriteFile(path, bad, 0o600))
			out, msg := loadFaulted(root, c, want)
			kind := fmt.Sprintf("%s %s", filepath.Base(path), map[bool]string{true: "flips", false: "truncations"}[i < 150])
			if counts[kind] == nil {
				counts[kind] = map[faultOutcome]int{}
			}
			counts[kind][out]++
			if out == faultSilent {
				t.Errorf("%s: %s changed the loaded state without a word:\n%s", filepath.Base(path), what, msg)
			}
		}
		must(t, os.WriteFile(path, orig, 0o600))
	}
	for kind, n := range counts {
		t.Logf("%-22s errors %3d, warnings %3d, harmless %3d, silent %d", kind, n[faultError], n[faultWarned], n[faultHarmless], n[faultSilent])
	}
}

// TestSalvageKeepsWhatIsReadable damages the second journal record: Load
// refuses, pointing at salvage, and Salvage keeps the snapshot and the
// first record and says what it dropped.
func TestSalvageKeepsWhatIsReadable(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	c := faultStack(t, root)
	b := file.New(root)
	path := b.Describe("dev", state.PartJournal)
	data, err := os.ReadFile(path)
	must(t, err)
	first := 8 + int(data[3]) | int(data[2])<<8 // header: big-endian length
	data[first+20] ^= 0x40                      // inside record 2
	must(t, os.WriteFile(path, data, 0o600))
	_, err = state.Load(ctx, b, "dev", state.OpenOptions{Crypter: c})
	if err == nil || !strings.Contains(err.Error(), "state export --force") {
		t.Fatalf("loading a damaged journal: error = %v, want one pointing at `state export --force`", err)
	}
	snap, notes, err := state.Salvage(ctx, b, "dev", c)
	must(t, err)
	if len(notes) != 1 || !strings.Contains(notes[0], fmt.Sprintf("record 2 (at byte %d) is damaged", first)) {
		t.Errorf("salvage notes = %q, want one naming record 2 at byte %d", notes, first)
	}
	if diff := cmp.Diff([]string{"default=p-1", "a=a-1", "pending create:b", "pending update:a"}, names(snap)); diff != "" {
		t.Errorf("salvaged state (-want +got):\n%s", diff)
	}
}

// TestSalvageListsDroppedRecords damages the second journal record:
// salvage must list every record it drops by URN and ID, not only count
// them, so that what they recorded can be imported again.
func TestSalvageListsDroppedRecords(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	c := faultStack(t, root)
	b := file.New(root)
	path := b.Describe("dev", state.PartJournal)
	data, err := os.ReadFile(path)
	must(t, err)
	first := 8 + int(data[3]) | int(data[2])<<8
	data[first+20] ^= 0x40 // inside record 2: the end of the update of a
	must(t, os.WriteFile(path, data, 0o600))
	_, notes, err := state.Salvage(ctx, b, "dev", c)
	must(t, err)
	if len(notes) != 1 {
		t.Fatalf("salvage notes = %q, want one", notes)
	}
	lines := strings.Split(notes[0], "\n")[1:]
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	urn := func(name string) string { return string(thing(name, "").URN) }
	want := []string{
		"record 2: damaged (it appears to hold the end of an update of " + urn("a") + ", ID a-1)",
		"record 3 (sequence 7): the begin of a create of " + urn("c"),
		"record 4 (sequence 8): the end of a create of " + urn("c") + ", ID c-1",
		"record 5 (sequence 9): a write of the stack outputs",
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("dropped records listed (-want +got):\n%s", diff)
	}
}
