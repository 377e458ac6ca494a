//go:build linux

package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/secrets/agent"
	"github.com/plinth-iac/plinth/internal/secrets/agent/agenttest"
)

// These tests run commands with a key agent: a real process (this test
// binary, which TestMain makes run agent.Main), in a directory of the
// test's, ended when the test ends. Every other test runs without one.

// keyAgent returns a Client for a fresh agent directory.
func keyAgent(t *testing.T) *agent.Client { return agenttest.Client(t) }

// derivations runs a command with the agent and returns how many times
// it derived a key.
func derivations(t *testing.T, dir string, ka *agent.Client, pw string, args ...string) (clitest.Result, int) {
	t.Helper()
	g := newDeriveGate()
	g.release()
	opts := withPassphrase(pw)
	opts.OnDerive, opts.KeyAgent = g.hook, ka
	r := clitest.Run(t, dir, opts, args...)
	n, _ := g.counts()
	return r, n
}

// warm runs a preview with the right passphrase and waits until one
// agent serves its key and no other is starting: a key derived by a
// command that found no agent reaches the one it starts through a pipe
// while the command goes on, so a command just after may find none yet
// and start a second, which hands its key to the first and exits.
func warm(t *testing.T, dir string, ka *agent.Client) {
	t.Helper()
	if r, _ := derivations(t, dir, ka, "right", "preview"); r.Code != 0 {
		t.Fatalf("preview: exit %d\n%s", r.Code, r.Output())
	}
	agenttest.WaitFor(t, "the agent serves the key", func() bool {
		_, n := derivations(t, dir, ka, "right", "stack", "output")
		return n == 0 && len(agenttest.Pids(ka.Dir)) == 1
	})
}

// TestKeyAgentSparesLaterCommandsTheDerivation: the first command
// derives the key and hands it to the agent; every later command with
// the same passphrase gets it from the agent and derives nothing.
func TestKeyAgentSparesLaterCommandsTheDerivation(t *testing.T) {
	dir := passphraseStack(t, "right", true)
	ka := keyAgent(t)
	if r, n := derivations(t, dir, ka, "right", "preview"); r.Code != 0 || n != 1 {
		t.Fatalf("first preview: exit %d, %d derivations, want 0 and 1\n%s", r.Code, n, r.Output())
	}
	warm(t, dir, ka)
	for _, args := range append(keyCommands(dir), []string{"config", "get", "apikey"}) {
		t.Run(strings.ReplaceAll(strings.Join(args, " "), dir+string(filepath.Separator), ""), func(t *testing.T) {
			if r, n := derivations(t, dir, ka, "right", args...); r.Code != 0 || n != 0 {
				t.Errorf("exit %d, %d derivations, want 0 and 0\n%s", r.Code, n, r.Output())
			}
		})
	}
	if got, _ := derivations(t, dir, ka, "right", "config", "get", "apikey"); got.Stdout != "k3y\n" {
		t.Errorf("config get apikey with the agent's key printed %q, want the secret", got.Stdout)
	}
}

// TestKeyAgentRefusesAWrongPassphrase: with the agent holding the right
// key, a wrong passphrase still fails each command with the error of a
// wrong passphrase and changes no file; the agent drops the key, so
// the next command with the right passphrase derives it again.
func TestKeyAgentRefusesAWrongPassphrase(t *testing.T) {
	for _, withSecrets := range []bool{true, false} {
		dir := passphraseStack(t, "right", withSecrets)
		ka := keyAgent(t)
		for _, args := range keyCommands(dir) {
			warm(t, dir, ka)
			before := files(t, dir)
			r, n := derivations(t, dir, ka, "wrong", args...)
			if r.Code != 1 || !strings.Contains(r.Stderr, "error: Wrong passphrase") || !strings.Contains(r.Stderr, wrongPassphrase) || n != 1 {
				t.Errorf("%v (secrets %v): exit %d, %d derivations; want 1 with the wrong-passphrase error, derived:\n%s", args, withSecrets, r.Code, n, r.Output())
			}
			if diff := cmp.Diff(before, files(t, dir)); diff != "" {
				t.Errorf("%v: a wrong passphrase changed files (-before +after):\n%s", args, diff)
			}
			if r, n := derivations(t, dir, ka, "right", "stack", "output"); r.Code != 0 || n != 1 {
				t.Errorf("%v: the next command: exit %d, %d derivations; want 0 and 1 (the agent dropped the key)\n%s", args, r.Code, n, r.Output())
			}
		}
	}
}

// TestKeyAgentKeyIsPerSalt: a stack with another salt (here another
// stack with the same passphrase) is a miss, derived and then kept too.
func TestKeyAgentKeyIsPerSalt(t *testing.T) {
	dir := passphraseStack(t, "right", true)
	ka := keyAgent(t)
	warm(t, dir, ka)
	if r, n := derivations(t, dir, ka, "right", "stack", "init", "prod"); r.Code != 0 || n != 1 {
		t.Errorf("stack init prod: exit %d, %d derivations; want 0 and 1 (a new salt)\n%s", r.Code, n, r.Output())
	}
	if r, n := derivations(t, dir, ka, "right", "--stack", "prod", "config", "set", "--secret", "apikey", "k4y"); r.Code != 0 || n != 0 {
		t.Errorf("config set in prod after stack init: exit %d, %d derivations; want 0 and 0 (init handed its key over)\n%s", r.Code, n, r.Output())
	}
	if r, n := derivations(t, dir, ka, "right", "--stack", "dev", "preview"); r.Code != 0 || n != 0 {
		t.Errorf("preview of dev: exit %d, %d derivations; want 0 and 0\n%s", r.Code, n, r.Output())
	}
	if r, n := derivations(t, passphraseStack(t, "right", false), ka, "right", "preview"); r.Code != 0 || n != 1 {
		t.Errorf("preview of another project's dev: exit %d, %d derivations; want 0 and 1 (its salt differs)\n%s", r.Code, n, r.Output())
	}
}

// TestSecretsForget: `plinth secrets forget` empties the agent, which
// exits, and the next command derives its key again.
func TestSecretsForget(t *testing.T) {
	dir := passphraseStack(t, "right", true)
	ka := keyAgent(t)
	opts := clitest.Options{KeyAgent: ka}
	if out := clitest.MustRun(t, dir, opts, "secrets", "forget").Stdout; out != "No key agent is running.\n" {
		t.Errorf("forget with no agent printed %q", out)
	}
	warm(t, dir, ka)
	out := clitest.MustRun(t, dir, opts, "secrets", "forget").Stdout
	if !strings.HasPrefix(out, "The key agent (pid ") || !strings.HasSuffix(out, " forgot 1 key and exits.\n") {
		t.Errorf("forget printed %q", out)
	}
	agenttest.WaitFor(t, "the agent exits", func() bool { return len(agenttest.Pids(ka.Dir)) == 0 })
	if r, n := derivations(t, dir, ka, "right", "preview"); r.Code != 0 || n != 1 {
		t.Errorf("preview after forget: exit %d, %d derivations; want 0 and 1\n%s", r.Code, n, r.Output())
	}
}

// TestNewStackKeyIsDerivedOnceWithTheAgent: `stack init` hands the key
// it derived to the key agent, so the `up` that follows derives none;
// and so does an `up` that creates the stack (deriving its key in the
// background), for the command after it. The agent is running already
// (warmed by another project), so a key handed over reaches it before
// the command ends.
func TestNewStackKeyIsDerivedOnceWithTheAgent(t *testing.T) {
	for name, first := range map[string][]string{
		"stack init": {"stack", "init", "dev"},
		"up":         {"up", "--yes"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
			ka := keyAgent(t)
			warm(t, passphraseStack(t, "right", false), ka)
			if r, n := derivations(t, dir, ka, "right", first...); r.Code != 0 || n != 1 {
				t.Fatalf("%s: exit %d, %d derivations; want 0 and 1\n%s", name, r.Code, n, r.Output())
			}
			if r, n := derivations(t, dir, ka, "right", "up", "--yes"); r.Code != 0 || n != 0 {
				t.Errorf("up after %s: exit %d, %d derivations; want 0 and 0 (the agent has the key)\n%s", name, r.Code, n, r.Output())
			}
		})
	}
}
