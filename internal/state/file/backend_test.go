package file

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/state"
)

func TestDamagedSnapshotNamesTheBackup(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b := New(dir)
	for range 2 { // the second write keeps the first as the backup
		if err := b.WriteSnapshot(ctx, "dev", []byte(`{"version":1}`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "stacks", "dev", "snapshot.json"), []byte("{bad"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := state.Load(ctx, b, "dev", state.OpenOptions{})
	var de *state.DamagedError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "snapshot.json.bak") {
		t.Fatalf("got %v, want a DamagedError naming the backup", err)
	}
}

// TestLostSnapshotKeepsTheBackup deletes snapshot.json and checks that the
// stack is refused (naming the backup and the command to use it) and that
// a later snapshot write does not throw the backup away.
func TestLostSnapshotKeepsTheBackup(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b := New(dir)
	for _, data := range []string{"first", "second"} {
		if err := b.WriteSnapshot(ctx, "dev", []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	stackDir := filepath.Join(dir, "stacks", "dev")
	if err := os.Remove(filepath.Join(stackDir, "snapshot.json")); err != nil {
		t.Fatal(err)
	}
	_, err := state.Load(ctx, b, "dev", state.OpenOptions{})
	for _, want := range []string{"snapshot.json.bak", "plinth state restore-backup --stack dev"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("loading a stack without its snapshot: error = %v, want one naming %q", err, want)
		}
	}
	if err := b.WriteSnapshot(ctx, "dev", []byte("third")); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(stackDir, "snapshot.json.bak")); err != nil || string(data) != "first" {
		t.Errorf("after a write with the snapshot missing, the backup holds %q (%v), want the first snapshot", data, err)
	}
}

// TestWriteMarkReplacesTheWholeFile writes marks of different lengths in
// turn: each read gives back exactly the last one written, with nothing
// left of a longer one before it (mark.json is overwritten in place).
func TestWriteMarkReplacesTheWholeFile(t *testing.T) {
	ctx := context.Background()
	b := New(t.TempDir())
	if err := os.MkdirAll(filepath.Join(b.root, "stacks", "dev"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, mark := range []string{`{"state":{"seq":9}}`, `{"state":{"seq":12345678}}`, `{"state":{"seq":1}}`, `{}`} {
		if err := b.WriteMark(ctx, "dev", []byte(mark)); err != nil {
			t.Fatal(err)
		}
		got, err := b.ReadMark(ctx, "dev")
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != mark {
			t.Errorf("after writing %s, ReadMark = %s", mark, got)
		}
	}
}
