package cli_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/state"
)

// TestMigrateRacesAFirstUp: a first `plinth up` of the stack on the
// target backend creates the stack's key before it waits for the lock,
// here just after migrate found the target empty (the hook holds
// migrate there until the key exists). Migrate must not replace that
// key, which up goes on to use: it refuses, naming the stack and the
// target, and leaves the source as it was; up then finishes on the
// target with its own key, and the stack works there.
func TestMigrateRacesAFirstUp(t *testing.T) {
	dir := base(t)
	targetDir := t.TempDir()
	target := "file:" + targetDir
	keyFile := filepath.Join(targetDir, "stacks", "dev", "secrets.json")
	sourceKey, err := os.ReadFile(filepath.Join(dir, ".plinth", "stacks", "dev", "secrets.json"))
	if err != nil {
		t.Fatal(err)
	}
	before := snapshotDir(t, filepath.Join(dir, ".plinth"))
	ups := make(chan clitest.Result, 1)
	hook := func(p state.Part) {
		if p != state.PartSecrets {
			return
		}
		go func() {
			ups <- clitest.Run(t, dir, clitest.Options{}, "--backend", target, "up", "--yes", "--lock-timeout", "2m")
		}()
		waitForFile(t, keyFile)
	}
	r := clitest.Run(t, dir, clitest.Options{BeforeMigrateWrite: hook}, "state", "migrate", "--to", target)
	up := <-ups
	if r.Code != 1 || !strings.Contains(r.Stderr, "secrets configuration for stack dev ("+keyFile+") that is not the source's") {
		t.Errorf("migrate during a first up on the target: exit %d, want 1 naming the stack and %s\n%s", r.Code, keyFile, r.Output())
	}
	if up.Code != 0 {
		t.Errorf("the first up on the target: exit %d\n%s", up.Code, up.Output())
	}
	key, err := os.ReadFile(keyFile)
	if err != nil || string(key) == string(sourceKey) {
		t.Errorf("the target's secrets configuration is the source's (%v): the first up's key was replaced", err)
	}
	if diff := cmp.Diff(before, snapshotDir(t, filepath.Join(dir, ".plinth"))); diff != "" {
		t.Errorf("migrate changed the source (-before +after):\n%s", diff)
	}
	if out := clitest.MustRun(t, dir, clitest.Options{}, "--backend", target, "preview").Stdout; clitest.ChangeLines(out) != nil {
		t.Errorf("a preview on the target after its first up finds changes:\n%s", out)
	}
}

// waitForFile waits until path exists.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			return
		}
	}
	t.Fatalf("%s was not created within a minute", path)
}
