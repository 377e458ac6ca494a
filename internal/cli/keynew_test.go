package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/engine"
)

// TestNewStackIsMadeWhileItsKeyIsDerived: the command that creates a
// passphrase stack derives its key in the background too. In `preview`
// and `up` (whose preview runs first) the derivation is held back until
// the first engine event, which comes only once the program is evaluated
// and its providers started; a command that derived the key before it
// began (as plinth did) never sees one, and the gate records it stuck.
// `up --skip-preview` records its first step before its first event, so
// there the derivation is held back until the command has locked the
// state, and the test checks the other half: the stack's secrets
// configuration is stored before the first step is recorded or begun.
// The stack each leaves is what a synchronous create made: its salt
// committed and its check value stored, so a wrong passphrase is
// refused, changing nothing, and the right one opens it.
func TestNewStackIsMadeWhileItsKeyIsDerived(t *testing.T) {
	for _, tc := range []struct {
		args []string
		// untilLocked holds the derivation back until the state is
		// locked, not until the first event.
		untilLocked bool
	}{
		{[]string{"preview"}, false},
		{[]string{"up", "--yes"}, false},
		{[]string{"up", "--yes", "--skip-preview"}, true},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
			g := newDeriveGate()
			if tc.untilLocked {
				stop := releaseWhenExists(g, filepath.Join(dir, ".plinth", "stacks", "dev", "lock"))
				defer stop()
			}
			var once sync.Once
			storedFirst := false
			opts := withPassphrase("right")
			opts.OnDerive = g.hook
			opts.Rewrite = func(*engine.Event) {
				once.Do(func() {
					_, err := os.Stat(filepath.Join(dir, ".plinth", "stacks", "dev", "secrets.json"))
					storedFirst = err == nil
					if !tc.untilLocked {
						g.release()
					}
				})
			}
			r := clitest.Run(t, dir, opts, tc.args...)
			n, stuck := g.counts()
			if r.Code != 0 || stuck || n != 1 {
				t.Fatalf("exit %d, key derived %d times, the command waited for the key before its first event: %v\n%s", r.Code, n, stuck, r.Output())
			}
			if tc.untilLocked && !storedFirst {
				t.Error("the first step was recorded before the stack's secrets configuration was stored")
			}
			if cfg := readFile(t, filepath.Join(dir, "plinth.dev.yaml")); !strings.HasPrefix(cfg, "encryptionsalt: v1:argon2id:") {
				t.Errorf("plinth.dev.yaml does not hold the salt:\n%s", cfg)
			}
			before := files(t, dir)
			w := clitest.Run(t, dir, withPassphrase("wrong"), "up", "--yes")
			if w.Code != 1 || !strings.Contains(w.Stderr, "error: Wrong passphrase") || !strings.Contains(w.Stderr, wrongPassphrase) {
				t.Errorf("up with a wrong passphrase: exit %d, want 1 with the wrong-passphrase error:\n%s", w.Code, w.Output())
			}
			if diff := cmp.Diff(before, files(t, dir)); diff != "" {
				t.Errorf("a wrong passphrase changed files (-before +after):\n%s", diff)
			}
			clitest.MustRun(t, dir, withPassphrase("right"), "up", "--yes")
		})
	}
}

// releaseWhenExists releases g once path exists, looking every
// millisecond until g is released or stop is called.
func releaseWhenExists(g *deriveGate, path string) (stop func()) {
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if _, err := os.Stat(path); err == nil {
				g.release()
				return
			}
			select {
			case <-done:
				return
			case <-g.open:
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done) }
}
