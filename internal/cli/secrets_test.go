package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func withPassphrase(p string) clitest.Options {
	return clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": p}}
}

// cloneCommitted copies only what a git clone would have: the program and
// the stack config files, not .plinth.
func cloneCommitted(t *testing.T, dir string) string {
	t.Helper()
	clone := t.TempDir()
	for _, name := range []string{"plinth.yaml", "plinth.dev.yaml"} {
		writeFile(t, filepath.Join(clone, name), readFile(t, filepath.Join(dir, name)))
	}
	return clone
}

func TestCommittedSaltOpensAFreshClone(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	clitest.MustRun(t, dir, withPassphrase("correct horse"), "config", "set", "--secret", "token", "s3cr3t")
	if cfg := readFile(t, filepath.Join(dir, "plinth.dev.yaml")); !strings.Contains(cfg, "encryptionsalt: v1:argon2id:") {
		t.Fatalf("plinth.dev.yaml holds no encryptionsalt:\n%s", cfg)
	}
	clone := cloneCommitted(t, dir)
	before := files(t, clone)
	if out := clitest.MustRun(t, clone, withPassphrase("correct horse"), "config", "get", "token").Stdout; out != "s3cr3t\n" {
		t.Errorf("config get in a fresh clone printed %q, want the secret", out)
	}
	r := clitest.Run(t, clone, withPassphrase("wrong"), "config", "get", "token")
	if r.Code != 1 || !strings.Contains(r.Output(), "Wrong passphrase") {
		t.Errorf("a wrong passphrase: exit %d, want 1 saying \"Wrong passphrase\"\n%s", r.Code, r.Output())
	}
	if diff := cmp.Diff(before, files(t, clone)); diff != "" {
		t.Errorf("config get wrote files in the clone (-before +after):\n%s", diff)
	}
}

// TestSaltUnderPlinthIsMigrated: a stack whose salt is only under .plinth
// (as older plinth wrote it) gets it in plinth.dev.yaml on the next save.
func TestSaltUnderPlinthIsMigrated(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	opts := withPassphrase("pw")
	clitest.MustRun(t, dir, opts, "config", "set", "--secret", "token", "s3cr3t")
	cfgPath := filepath.Join(dir, "plinth.dev.yaml")
	cfg := readFile(t, cfgPath)
	var kept []string
	for _, l := range strings.Split(cfg, "\n") {
		if !strings.HasPrefix(l, "encryptionsalt:") {
			kept = append(kept, l)
		}
	}
	writeFile(t, cfgPath, strings.Join(kept, "\n")) // as an older plinth left it
	clitest.MustRun(t, dir, opts, "config", "set", "count", "3")
	if !strings.Contains(readFile(t, cfgPath), "encryptionsalt:") {
		t.Fatalf("the salt under .plinth was not written to plinth.dev.yaml:\n%s", readFile(t, cfgPath))
	}
	if out := clitest.MustRun(t, cloneCommitted(t, dir), opts, "config", "get", "token").Stdout; out != "s3cr3t\n" {
		t.Errorf("config get in a fresh clone after migration printed %q", out)
	}
}

func TestLostKeyIsNeverReplaced(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	run(t, dir, "config", "set", "--secret", "token", "s3cr3t")
	run(t, dir, "up", "--yes")
	keyFile := filepath.Join(dir, ".plinth", "stacks", "dev", "secrets.json")
	if err := os.Remove(keyFile); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"preview"}, {"config", "get", "token"}, {"config", "set", "--secret", "other", "x"}, {"up", "--yes"}} {
		r := clitest.Run(t, dir, clitest.Options{}, args...)
		for _, want := range []string{"Secrets key missing", "secure config values token", "restore .plinth/stacks/dev/secrets.json"} {
			if r.Code != 1 || !strings.Contains(r.Output(), want) {
				t.Errorf("plinth %s with the key file lost: exit %d, want 1 saying %q\n%s", strings.Join(args, " "), r.Code, want, r.Output())
			}
		}
		if _, err := os.Stat(keyFile); err == nil {
			t.Fatalf("plinth %s generated a new key", strings.Join(args, " "))
		}
	}
}

func TestPassphraseOnAKeyFileStackIsNotIgnoredSilently(t *testing.T) {
	dir := base(t) // a generated key
	r := clitest.MustRun(t, dir, withPassphrase("pw"), "preview")
	if !strings.Contains(r.Output(), "PLINTH_PASSPHRASE is set, but the secrets of stack dev are encrypted with a generated key") {
		t.Errorf("preview with PLINTH_PASSPHRASE on a key-file stack says nothing about it:\n%s", r.Output())
	}
}

// TestChangeSecretsProvider moves a key-file stack with a secret in its
// config and one in its state to a passphrase and back.
func TestChangeSecretsProvider(t *testing.T) {
	dir := base(t)
	run(t, dir, "config", "set", "--secret", "token", "s3cr3t")
	ctx := context.Background()
	b := file.New(filepath.Join(dir, ".plinth"))
	c, _, err := secrets.Open(ctx, b, "dev", secrets.Options{KDF: clitest.CheapKDF})
	if err != nil {
		t.Fatal(err)
	}
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{Crypter: c})
	if err != nil {
		t.Fatal(err)
	}
	out := resource.Object{"pw": resource.MakeSecret(resource.NewString("state-secret-77"))}
	if err := s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpOutputs, Outputs: out}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	pw := withPassphrase("team pass")
	if r := clitest.MustRun(t, dir, pw, "stack", "change-secrets-provider", "passphrase"); !strings.Contains(r.Stdout, "now use a passphrase") {
		t.Errorf("change-secrets-provider says:\n%s", r.Output())
	}
	keyFile := readFile(t, filepath.Join(dir, ".plinth", "stacks", "dev", "secrets.json"))
	if strings.Contains(keyFile, `"key"`) {
		t.Errorf("the old key is still stored after the change: %s", keyFile)
	}
	if got := clitest.MustRun(t, cloneCommitted(t, dir), pw, "config", "get", "token").Stdout; got != "s3cr3t\n" {
		t.Errorf("config get in a clone after the change printed %q", got)
	}
	if got := clitest.MustRun(t, dir, pw, "stack", "output", "pw", "--show-secrets").Stdout; got != "state-secret-77\n" {
		t.Errorf("the state's secret reads %q after the change", got)
	}
	fails(t, dir, "Passphrase needed", "config", "get", "token")
	clitest.MustRun(t, dir, pw, "stack", "change-secrets-provider", "key")
	if got := run(t, dir, "config", "get", "token").Stdout; got != "s3cr3t\n" {
		t.Errorf("config get after changing back to a key printed %q", got)
	}
	if cfg := readFile(t, filepath.Join(dir, "plinth.dev.yaml")); strings.Contains(cfg, "encryptionsalt") {
		t.Errorf("the salt is still in plinth.dev.yaml after changing to a key:\n%s", cfg)
	}
	if got := run(t, dir, "stack", "output", "pw", "--show-secrets").Stdout; got != "state-secret-77\n" {
		t.Errorf("the state's secret reads %q after changing back", got)
	}
}

func TestPassphrasePrompt(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	clitest.MustRun(t, dir, withPassphrase("pw"), "config", "set", "--secret", "token", "s3cr3t")
	r := clitest.Run(t, dir, clitest.Options{StdinTerminal: true, Stdin: "pw\n"}, "config", "get", "token")
	if r.Code != 0 || r.Stdout != "s3cr3t\n" || !strings.Contains(r.Stderr, "Enter the passphrase of stack dev") {
		t.Errorf("config get with the passphrase typed at the prompt: exit %d\n%s", r.Code, r.Output())
	}
	fails(t, dir, "Passphrase needed", "config", "get", "token") // no terminal: no prompt
	r = clitest.Run(t, dir, clitest.Options{StdinTerminal: true, Stdin: "nope\n"}, "config", "get", "token")
	if r.Code != 1 || !strings.Contains(r.Output(), "Wrong passphrase") {
		t.Errorf("a wrong passphrase at the prompt: exit %d\n%s", r.Code, r.Output())
	}
}

// TestUpCommitsTheSaltOfANewStack: `up` with a passphrase on a stack no
// `stack init` made writes encryptionsalt to plinth.dev.yaml, as init
// does, keeping what a hand-written file holds. A clone of the committed
// files then refuses a wrong passphrase, and a clone that shares the
// state (but not .plinth's secrets.json) opens the secret the state holds.
func TestUpCommitsTheSaltOfANewStack(t *testing.T) {
	const handWritten = "# the dev stack\nconfig:\n  # how long the pet's name is\n  count: \"3\" # words\n"
	for name, config := range map[string]string{"no config file": "", "a hand-written config file": handWritten} {
		t.Run(name, func(t *testing.T) {
			dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
			writeFile(t, filepath.Join(dir, "plinth.yaml"), readFile(t, filepath.Join(dir, "plinth.yaml"))+"  token:\n    fn::secret: state-secret-42\n")
			cfgPath := filepath.Join(dir, "plinth.dev.yaml")
			if config != "" {
				writeFile(t, cfgPath, config)
			}
			pw := withPassphrase("correct horse")
			clitest.MustRun(t, dir, pw, "up", "--yes")
			if _, err := os.Stat(cfgPath); err != nil {
				t.Fatalf("up on a new passphrase stack left no plinth.dev.yaml for its encryptionsalt: %v", err)
			}
			cfg := readFile(t, cfgPath)
			var rest []string
			salts := 0
			for _, l := range strings.SplitAfter(cfg, "\n") {
				if strings.HasPrefix(l, "encryptionsalt: v1:argon2id:") {
					salts++
				} else {
					rest = append(rest, l)
				}
			}
			if salts != 1 {
				t.Fatalf("plinth.dev.yaml holds %d encryptionsalt lines after up, want 1:\n%s", salts, cfg)
			}
			if diff := cmp.Diff(config, strings.Join(rest, "")); config != "" && diff != "" {
				t.Errorf("up changed more of plinth.dev.yaml than its encryptionsalt (-was +now):\n%s", diff)
			}
			checkClones(t, dir, pw)
		})
	}
}

// checkClones opens the stack in dir from a clone of its committed files:
// a wrong passphrase is refused, and with the state shared (not the
// secrets configuration under .plinth) pw reads the state's secret.
func checkClones(t *testing.T, dir string, pw clitest.Options) {
	t.Helper()
	clone := cloneCommitted(t, dir)
	r := clitest.Run(t, clone, withPassphrase("wrong"), "preview")
	if r.Code != 1 || !strings.Contains(r.Output(), "Wrong passphrase") {
		t.Errorf("preview in a clone with a wrong passphrase: exit %d, want 1 saying \"Wrong passphrase\"\n%s", r.Code, r.Output())
	}
	shared := cloneCommitted(t, dir)
	stackDir := filepath.Join(".plinth", "stacks", "dev")
	if err := os.MkdirAll(filepath.Join(shared, stackDir), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(shared, stackDir, "snapshot.json"), readFile(t, filepath.Join(dir, stackDir, "snapshot.json")))
	if got := clitest.MustRun(t, shared, pw, "stack", "output", "token", "--show-secrets").Stdout; got != "state-secret-42\n" {
		t.Errorf("stack output in a clone sharing the state printed %q, want the state's secret", got)
	}
}
