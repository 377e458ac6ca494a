package file_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
)

// runs records three clean operations on a stack, each creating one
// resource and recorded in the history, and returns the snapshot.json
// each one left.
func runs(t *testing.T, root string) [][]byte {
	ctx := context.Background()
	b := file.New(root)
	var snaps [][]byte
	for i, name := range []string{"a", "b", "c"} {
		s, err := state.Open(ctx, b, "dev", state.OpenOptions{History: state.NewOperation("update", "test")})
		must(t, err)
		if i == 0 {
			record(t, s, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: prov()})
		}
		record(t, s,
			&state.Entry{Step: 1, Kind: state.Begin, Op: state.OpCreate, New: thing(name, "")},
			&state.Entry{Step: 1, Kind: state.End, Op: state.OpCreate, New: thing(name, name+"-1")})
		s.Finish(state.ResultSucceeded, map[string]int{"create": 1})
		must(t, s.Close(ctx))
		data, err := os.ReadFile(b.Describe("dev", state.PartSnapshot))
		must(t, err)
		snaps = append(snaps, data)
	}
	return snaps
}

// crash leaves a fourth operation's journal behind, as a kill would: d
// and e created, f begun.
func crash(t *testing.T, root string) {
	ctx := context.Background()
	b := file.New(root)
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{History: state.NewOperation("update", "test")})
	must(t, err)
	record(t, s,
		&state.Entry{Step: 1, Kind: state.Begin, Op: state.OpCreate, New: thing("d", "")},
		&state.Entry{Step: 1, Kind: state.End, Op: state.OpCreate, New: thing("d", "d-1")},
		&state.Entry{Step: 2, Kind: state.Begin, Op: state.OpCreate, New: thing("e", "")},
		&state.Entry{Step: 2, Kind: state.End, Op: state.OpCreate, New: thing("e", "e-1")},
		&state.Entry{Step: 3, Kind: state.Begin, Op: state.OpCreate, New: thing("f", "")},
	)
	must(t, b.ForceUnlock(ctx, "dev"))
}

func loadClean(t *testing.T, root string) *state.Snapshot {
	t.Helper()
	want, err := state.Load(context.Background(), file.New(root), "dev", state.OpenOptions{Verify: true})
	must(t, err)
	return want
}

// TestOlderSnapshotIsRefused copies each older snapshot.json back over
// the newest: every load and open must refuse with a *state.RollbackError
// naming both serials, the way back and the resources the backup holds
// that the state lacks.
func TestOlderSnapshotIsRefused(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	snaps := runs(t, root)
	b := file.New(root)
	path := b.Describe("dev", state.PartSnapshot)
	for i, old := range snaps[:len(snaps)-1] {
		t.Run(fmt.Sprintf("run %d", i+1), func(t *testing.T) {
			must(t, os.WriteFile(path, old, 0o600))
			defer func() { must(t, os.WriteFile(path, snaps[len(snaps)-1], 0o600)) }()
			_, err := state.Load(ctx, b, "dev", state.OpenOptions{})
			var re *state.RollbackError
			if !errors.As(err, &re) {
				t.Fatalf("loading an older snapshot: error = %v, want a *state.RollbackError", err)
			}
			for _, want := range []string{
				fmt.Sprintf("is at serial %d,", i+1), fmt.Sprintf("records serial %d,", len(snaps)),
				"rolled back", "plinth state accept-rollback --stack dev", "Nothing was changed",
			} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q\nlacks %q", err, want)
				}
			}
			if i == 0 && !strings.Contains(err.Error(), "Thing::b, ID b-1") {
				t.Errorf("error %q\ndoes not list b (held by the newer backup)", err)
			}
			if _, err := state.Open(ctx, b, "dev", state.OpenOptions{}); !errors.As(err, &re) {
				t.Errorf("opening an older snapshot: error = %v, want a *state.RollbackError", err)
			}
		})
	}
	if diff := names(loadClean(t, root)); len(diff) != 4 {
		t.Errorf("the newest snapshot put back: %v", diff)
	}
}

// frames returns the byte offsets at which the journal's records end.
func frames(data []byte) []int {
	var ends []int
	for off := 0; off+8 <= len(data); {
		off += 8 + int(binary.BigEndian.Uint32(data[off:off+4]))
		ends = append(ends, off)
	}
	return ends
}

// TestJournalCutAtRecordBoundaries cuts a crashed run's journal at every
// record boundary: each cut must be refused. Cutting the journal leaves
// whole records, so without the mark each would read as a valid, older
// state and the plan would create d or e again.
func TestJournalCutAtRecordBoundaries(t *testing.T) {
	root := t.TempDir()
	runs(t, root)
	crash(t, root)
	want := loadClean(t, root)
	path := file.New(root).Describe("dev", state.PartJournal)
	orig, err := os.ReadFile(path)
	must(t, err)
	ends := frames(orig)
	if len(ends) != 5 || ends[4] != len(orig) {
		t.Fatalf("the journal's records end at %v of %d bytes, want 5 records", ends, len(orig))
	}
	for _, cut := range append([]int{0}, ends[:4]...) {
		must(t, os.WriteFile(path, orig[:cut], 0o600))
		out, msg := loadFaulted(root, nil, want)
		if out != faultError || !strings.Contains(msg, "journal truncated") {
			t.Errorf("the journal cut to %d bytes: outcome %d (%s), want a rollback error", cut, out, msg)
		}
	}
	must(t, os.WriteFile(path, orig, 0o600))
	if out, msg := loadFaulted(root, nil, want); out != faultHarmless {
		t.Errorf("the whole journal: outcome %d (%s)", out, msg)
	}
}

// TestDeletingStateFiles deletes every combination of the stack's state
// files, after clean runs and after a crash: each must be refused, or
// leave the loaded state as it was.
func TestDeletingStateFiles(t *testing.T) {
	files := []string{"snapshot.json", "snapshot.json.bak", "stack.json", "journal"}
	for _, crashed := range []bool{false, true} {
		root := t.TempDir()
		runs(t, root)
		if crashed {
			crash(t, root)
		}
		want := loadClean(t, root)
		dir := filepath.Join(root, "stacks", "dev")
		saved := map[string][]byte{}
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(dir, f))
			must(t, err)
			saved[f] = data
		}
		for set := 1; set < 1<<len(files); set++ {
			var gone []string
			for i, f := range files {
				if set&(1<<i) != 0 {
					gone = append(gone, f)
					must(t, os.Remove(filepath.Join(dir, f)))
				}
			}
			out, msg := loadFaulted(root, nil, want)
			if out == faultSilent || out == faultWarned {
				t.Errorf("crashed %v, deleted %v: the state loaded changed:\n%s", crashed, gone, msg)
			}
			if len(gone) == 3 && !crashed && set == 7 && !strings.Contains(msg, "it was deleted") {
				t.Errorf("deleted %v: %q, want a rollback error saying the files were deleted", gone, msg)
			}
			for _, f := range gone {
				must(t, os.WriteFile(filepath.Join(dir, f), saved[f], 0o600))
			}
		}
	}
}

// TestBackupIsACopy checks that the backup is a file of its own: after
// every write, the first included, snapshot.json and snapshot.json.bak
// are not one inode and no snapshot.json.bak.new is left; and damage to
// snapshot.json in place leaves the backup restorable.
func TestBackupIsACopy(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	dir := filepath.Join(root, "stacks", "dev")
	b := file.New(root)
	check := func(when string) {
		t.Helper()
		cur, err := os.Stat(filepath.Join(dir, "snapshot.json"))
		must(t, err)
		bak, err := os.Stat(filepath.Join(dir, "snapshot.json.bak"))
		must(t, err)
		if os.SameFile(cur, bak) {
			t.Errorf("%s: snapshot.json and snapshot.json.bak are one file", when)
		}
		if _, err := os.Stat(filepath.Join(dir, "snapshot.json.bak.new")); err == nil {
			t.Errorf("%s: snapshot.json.bak.new was left behind", when)
		}
	}
	for i, data := range []string{"first", "second", "third"} {
		must(t, b.WriteSnapshot(ctx, "dev", []byte(data)))
		check(fmt.Sprintf("after write %d", i+1))
	}
	root = t.TempDir()
	dir = filepath.Join(root, "stacks", "dev")
	snaps := runs(t, root)
	bak, err := os.ReadFile(filepath.Join(dir, "snapshot.json.bak"))
	must(t, err)
	if string(bak) != string(snaps[1]) {
		t.Errorf("the backup is not the snapshot before the last")
	}
	// Damage snapshot.json in place, as an editor or a bad disk would.
	f, err := os.OpenFile(filepath.Join(dir, "snapshot.json"), os.O_RDWR, 0)
	must(t, err)
	_, err = f.WriteAt([]byte("XXXX"), 40)
	must(t, errors.Join(err, f.Close()))
	r, err := state.RestoreBackup(ctx, file.New(root), "dev", state.RestoreOptions{Force: true})
	must(t, err)
	if r.Resources != 3 {
		t.Errorf("restored %d resources, want 3 (the provider, a, b)", r.Resources)
	}
	check("after restore-backup")
}

// TestStaleBackupTempIsRemoved leaves a snapshot.json.bak.new, as
// earlier versions could, and checks the next write removes it.
func TestStaleBackupTempIsRemoved(t *testing.T) {
	root := t.TempDir()
	runs(t, root)
	stale := filepath.Join(root, "stacks", "dev", "snapshot.json.bak.new")
	must(t, os.WriteFile(stale, []byte("old"), 0o600))
	s, err := state.Open(context.Background(), file.New(root), "dev", state.OpenOptions{})
	must(t, err)
	record(t, s, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: thing("z", "z-1")})
	must(t, s.Close(context.Background()))
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("%s is still there after a write", stale)
	}
}

// TestRestoreBackupOlderThanHistory rolls snapshot.json back two runs:
// the backup is then one run old, still older than the history, so
// restore-backup refuses it without Force, and with Force restores it,
// listing the operation it forgets; later loads pass.
func TestRestoreBackupOlderThanHistory(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	snaps := runs(t, root)
	b := file.New(root)
	must(t, os.WriteFile(b.Describe("dev", state.PartSnapshot), snaps[0], 0o600))
	_, err := state.RestoreBackup(ctx, b, "dev", state.RestoreOptions{})
	if err == nil || !strings.Contains(err.Error(), "is at serial 2, sequence 5, but") || !strings.Contains(err.Error(), "records serial 3, sequence 7: the backup is older") {
		t.Fatalf("restoring a backup older than the history: error = %v, want one naming both serials", err)
	}
	r, err := state.RestoreBackup(ctx, b, "dev", state.RestoreOptions{Force: true})
	must(t, err)
	if len(r.Forgotten) != 1 || !strings.HasPrefix(r.Forgotten[0], "update at ") || !strings.HasSuffix(r.Forgotten[0], "(succeeded): create 1") {
		t.Errorf("forgotten = %q, want the third update", r.Forgotten)
	}
	if got := names(loadClean(t, root)); len(got) != 3 {
		t.Errorf("after the restore the state holds %v, want the provider, a and b", got)
	}
}

// TestAcceptRollback accepts a snapshot rolled back two runs: it lists
// b (held by the newer backup) and the two updates, later loads and
// sessions pass, and a second accept is refused.
func TestAcceptRollback(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	snaps := runs(t, root)
	b := file.New(root)
	must(t, os.WriteFile(b.Describe("dev", state.PartSnapshot), snaps[0], 0o600))
	a, err := state.AcceptRollback(ctx, b, "dev", state.AcceptOptions{History: state.NewOperation("accept-rollback", "test")})
	must(t, err)
	lost := strings.Join(a.Lost, "\n")
	if len(a.Lost) != 3 || !strings.Contains(lost, "Thing::b, ID b-1 (in the backup") || a.To.Serial != 4 {
		t.Errorf("accepted %+v, want the two updates and b lost, and serial 4", a)
	}
	if got := names(loadClean(t, root)); len(got) != 2 {
		t.Errorf("after accepting the state holds %v, want the provider and a", got)
	}
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{History: state.NewOperation("update", "test")})
	must(t, err)
	record(t, s, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: thing("b", "b-2")})
	s.Finish(state.ResultSucceeded, nil)
	must(t, s.Close(ctx))
	loadClean(t, root)
	if _, err := state.AcceptRollback(ctx, b, "dev", state.AcceptOptions{}); err == nil || !strings.Contains(err.Error(), "no rollback to accept") {
		t.Errorf("accepting a state that is not rolled back: error = %v", err)
	}
}

// TestSalvageOfARolledBackState salvages a snapshot rolled back one run:
// nothing is damaged, but salvage must say that the state is older than
// the history and what was recorded since, rather than that it read
// cleanly.
func TestSalvageOfARolledBackState(t *testing.T) {
	root := t.TempDir()
	snaps := runs(t, root)
	b := file.New(root)
	must(t, os.WriteFile(b.Describe("dev", state.PartSnapshot), snaps[1], 0o600))
	_, notes, err := state.Salvage(context.Background(), b, "dev", nil)
	must(t, err)
	if len(notes) != 1 || !strings.Contains(notes[0], "is at serial 2, sequence 5, but") || !strings.Contains(notes[0], "(succeeded): create 1") {
		t.Errorf("salvage notes = %q, want one saying the state is older than the history", notes)
	}
}
