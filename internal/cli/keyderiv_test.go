package cli_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/engine"
)

// The key of a passphrase stack is derived in the background while a
// command works (workspace.crypterInBackground). These tests hold that to
// what the foreground derivation gave: a wrong passphrase fails every
// command with the same error and records nothing, the key is derived
// once, and a command that needs no secret goes on without it.

const wrongPassphrase = "the passphrase in PLINTH_PASSPHRASE does not decrypt the secrets of stack dev; " +
	"set it to the passphrase the stack was created with (nothing was changed)"

// passphraseStack makes a stack protected by passphrase pw with `up`:
// with secrets, the program reads a secure config value and records a
// secret output; without, it is testdata/base, whose state holds none.
func passphraseStack(t *testing.T, pw string, withSecrets bool) string {
	t.Helper()
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	opts := withPassphrase(pw)
	if withSecrets {
		clitest.Edit(t, dir, "plinth.yaml", "config:\n", "config:\n  apikey: { type: string, secret: true }\n")
		writeFile(t, filepath.Join(dir, "plinth.yaml"), readFile(t, filepath.Join(dir, "plinth.yaml"))+"  token:\n    fn::secret: state-secret-42\n")
		clitest.MustRun(t, dir, opts, "config", "set", "--secret", "apikey", "k3y")
	}
	clitest.MustRun(t, dir, opts, "up", "--yes")
	return dir
}

// keyCommands are the commands that open the secrets of the stack in
// dir, each of which must refuse a wrong passphrase.
func keyCommands(dir string) [][]string {
	return [][]string{
		{"preview"},
		{"preview", "--save-plan", filepath.Join(dir, "plan.json")},
		{"preview", "--detailed-exitcode"},
		{"up", "--yes"},
		{"refresh", "--yes"},
		{"destroy", "--yes"},
		{"stack", "output"},
		{"stack", "output", "--show-secrets"},
		{"state", "ls"},
	}
}

// TestWrongPassphraseFailsEveryCommandAndRecordsNothing: with the key
// derived in the background, a wrong passphrase still fails each command
// with the error of a wrong passphrase, whether or not the command had a
// secret to open, and leaves every file byte for byte as it was.
func TestWrongPassphraseFailsEveryCommandAndRecordsNothing(t *testing.T) {
	for _, withSecrets := range []bool{true, false} {
		dir := passphraseStack(t, "right", withSecrets)
		before := files(t, dir)
		for _, args := range keyCommands(dir) {
			name := strings.ReplaceAll(strings.Join(args, " "), dir+string(filepath.Separator), "")
			if !withSecrets {
				name += " (no secrets)"
			}
			t.Run(name, func(t *testing.T) {
				r := clitest.Run(t, dir, withPassphrase("wrong"), args...)
				if r.Code != 1 || !strings.Contains(r.Stderr, "error: Wrong passphrase") || !strings.Contains(r.Stderr, wrongPassphrase) {
					t.Errorf("exit %d, want 1 with the wrong-passphrase error:\n%s", r.Code, r.Output())
				}
				if diff := cmp.Diff(before, files(t, dir)); diff != "" {
					t.Errorf("a wrong passphrase changed files (-before +after):\n%s", diff)
				}
			})
		}
	}
}

// TestStateSecretsRoundTripWithTheKeyInTheBackground: the right
// passphrase opens the secrets the state and the config hold, a preview
// finds nothing to change (the secrets compared equal), and an update
// that seals them again keeps them.
func TestStateSecretsRoundTripWithTheKeyInTheBackground(t *testing.T) {
	dir := passphraseStack(t, "right", true)
	pw := withPassphrase("right")
	clitest.MustRun(t, dir, pw, "preview", "--detailed-exitcode")
	clitest.MustRun(t, dir, pw, "up", "--yes", "--replace", "pet")
	if got := clitest.MustRun(t, dir, pw, "stack", "output", "token", "--show-secrets").Stdout; got != "state-secret-42\n" {
		t.Errorf("stack output token printed %q, want the secret", got)
	}
	if got := clitest.MustRun(t, dir, pw, "config", "get", "apikey").Stdout; got != "k3y\n" {
		t.Errorf("config get apikey printed %q, want the secret", got)
	}
}

// deriveGate is an OnDerive hook: it counts derivations and holds each
// back until release is called. One that is never released (a command
// that waited for the key before doing what should not need it) goes on
// after a generous bound, recorded as stuck, so the test fails rather
// than hangs.
type deriveGate struct {
	mu      sync.Mutex
	started int
	stuck   bool
	once    sync.Once
	open    chan struct{}
}

func newDeriveGate() *deriveGate { return &deriveGate{open: make(chan struct{})} }

func (g *deriveGate) hook() {
	g.mu.Lock()
	g.started++
	g.mu.Unlock()
	select {
	case <-g.open:
	case <-time.After(10 * time.Second):
		g.mu.Lock()
		g.stuck = true
		g.mu.Unlock()
	}
}

func (g *deriveGate) release() { g.once.Do(func() { close(g.open) }) }

func (g *deriveGate) counts() (started int, stuck bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.started, g.stuck
}

// TestKeyIsDerivedOncePerCommand counts the derivations of each command
// that opens the secrets of a stack that holds some.
func TestKeyIsDerivedOncePerCommand(t *testing.T) {
	dir := passphraseStack(t, "right", true)
	for _, args := range append(keyCommands(dir), []string{"config", "get", "apikey"}) {
		t.Run(strings.ReplaceAll(strings.Join(args, " "), dir+string(filepath.Separator), ""), func(t *testing.T) {
			g := newDeriveGate()
			g.release()
			opts := withPassphrase("right")
			opts.OnDerive = g.hook
			if r := clitest.Run(t, dir, opts, args...); r.Code != 0 {
				t.Fatalf("exit %d:\n%s", r.Code, r.Output())
			}
			if n, _ := g.counts(); n != 1 {
				t.Errorf("the key was derived %d times, want once", n)
			}
		})
	}
}

// TestCommandNeedingNoSecretDoesNotWaitForTheKey: a preview of a stack
// whose config and state hold no secret evaluates the program and runs
// the provider's steps while the key is still being derived. The
// derivation is held back until the first engine event arrives; had the
// preview waited for the key first, no event would come.
func TestCommandNeedingNoSecretDoesNotWaitForTheKey(t *testing.T) {
	dir := passphraseStack(t, "right", false)
	g := newDeriveGate()
	opts := withPassphrase("right")
	opts.OnDerive = g.hook
	opts.Rewrite = func(*engine.Event) { g.release() }
	r := clitest.Run(t, dir, opts, "preview")
	n, stuck := g.counts()
	if r.Code != 0 || stuck || n != 1 {
		t.Errorf("preview: exit %d, key derived %d times, engine waited for the key: %v\n%s", r.Code, n, stuck, r.Output())
	}
}
