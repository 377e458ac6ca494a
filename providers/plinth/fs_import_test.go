package plinth_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/plinth-iac/plinth/sdk/provider"
)

func TestFileImportResolvesARelativeIDAgainstTheRoot(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, root)
	resp, err := h.p.Read(h.ctx, provider.ReadRequest{URN: urnOf("plinth:fs:File", "notes"), ID: "notes.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.ID != filepath.Join(root, "notes.txt") {
		t.Errorf("ID %q: want the file found under the root", resp.ID)
	}
	if got := resp.Inputs["path"].Str(); got != "notes.txt" {
		t.Errorf("imported path %q, want it as named", got)
	}
	if got := resp.Inputs["content"].Str(); got != "hi" {
		t.Errorf("imported content %q", got)
	}
}
