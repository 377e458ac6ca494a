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
