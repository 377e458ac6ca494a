package file

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state"
)

// TestStreamSnapshot writes snapshots as they are produced: the patch
// lands at its offset, the replaced snapshot becomes the backup, and a
// write that fails leaves both as they were.
func TestStreamSnapshot(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b := New(dir)
	stream := func(text, patch string, at int64, fail error) error {
		return b.StreamSnapshot(ctx, "dev", func(w io.Writer) (state.SnapshotPatch, error) {
			if _, err := io.WriteString(w, text); err != nil {
				return state.SnapshotPatch{}, err
			}
			return state.SnapshotPatch{At: at, Data: []byte(patch)}, fail
		})
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, "stacks", "dev", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	if err := stream("first-0000", "1111", 6, nil); err != nil {
		t.Fatal(err)
	}
	if err := stream("second-0000", "2222", 7, nil); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := stream("third-0000", "3333", 6, boom); !errors.Is(err, boom) {
		t.Fatalf("a failed write returned %v, want it to wrap %v", err, boom)
	}
	got := map[string]string{"snapshot": read(snapshotFile), "backup": read(backupFile)}
	want := map[string]string{"snapshot": "second-2222", "backup": "first-1111"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// TestMapSnapshot lends snapshot.json's bytes, reads an empty one, and
// tells a lost snapshot from one never written, as ReadSnapshot does.
func TestMapSnapshot(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b := New(dir)
	if _, _, err := b.MapSnapshot(ctx, "dev"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no snapshot yet: got %v, want fs.ErrNotExist", err)
	}
	for _, text := range []string{`{"version":1}`, ""} {
		if err := b.WriteSnapshot(ctx, "dev", []byte(text)); err != nil {
			t.Fatal(err)
		}
		data, release, err := b.MapSnapshot(ctx, "dev")
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != text {
			t.Errorf("mapped %q, want %q", data, text)
		}
		release()
	}
	if err := os.Remove(filepath.Join(dir, "stacks", "dev", snapshotFile)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.MapSnapshot(ctx, "dev"); !errors.Is(err, state.ErrSnapshotLost) {
		t.Errorf("snapshot deleted: got %v, want state.ErrSnapshotLost", err)
	}
}
