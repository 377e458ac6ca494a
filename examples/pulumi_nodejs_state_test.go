package examples_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPulumiNodejsDestroyWithoutModules: refresh and destroy work from
// the state alone, as pulumi refresh and pulumi destroy do: they never run
// the program, so they need neither node_modules nor node. A preview,
// which runs the program, still asks for npm install.
func TestPulumiNodejsDestroyWithoutModules(t *testing.T) {
	t.Parallel()
	p := newNodeProject(t)
	transpileOnly(t, p.Dir)
	p.Run("config", "set", "--secret", "token", "s3cr3t")
	p.Run("config", "set", "protect", "false")
	p.Run("up", "--yes", "--skip-preview")
	if err := os.Remove(filepath.Join(p.Dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	if r := p.Try("preview"); r.Code == 0 || !strings.Contains(r.Output(), "npm install") {
		t.Errorf("preview without node_modules succeeded, or did not ask for npm install:\n%s", r.Output())
	}

	// Drift the refresh must record: a file deleted outside plinth.
	if err := os.Remove(filepath.Join(p.Dir, "out", "shouted.txt")); err != nil {
		t.Fatal(err)
	}
	p.Run("refresh", "--yes")
	if out := p.Run("state", "ls").Stdout; strings.Contains(out, "shouted") {
		t.Errorf("after refresh the state still records the deleted file shouted:\n%s", out)
	}
	p.Run("destroy", "--yes")
	p.emptyState()
	if _, err := os.Stat(filepath.Join(p.Dir, "out", "note.txt")); !os.IsNotExist(err) {
		t.Errorf("after destroy, out/note.txt still exists (err %v)", err)
	}
}
