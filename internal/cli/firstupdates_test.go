package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestConcurrentFirstUpdates runs two processes of the real binary at
// once on a new stack, as two CI jobs' first updates would (or an update
// and `config set --secret`), on each backend, with a generated key and
// with a passphrase. Both make a secrets configuration before either
// takes the stack's lock; one is stored, and the other command must use
// it. Both must succeed, and the state's secret output (and the secret
// config value) must open afterwards: from the stored configuration,
// and for a passphrase from the salt line committed to plinth.dev.yaml
// too (so the file and the store agree). Before the configuration was
// created atomically the later write replaced the earlier, and what the
// other command sealed with the replaced key could never be read.
//
// Whether the two commands race at all is up to the scheduler, so each
// case runs a few fresh stacks.
func TestConcurrentFirstUpdates(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the plinth binary")
	}
	bin := filepath.Join(t.TempDir(), "plinth")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/plinth-iac/plinth/cmd/plinth").CombinedOutput(); err != nil {
		t.Fatalf("building plinth: %v\n%s", err, out)
	}
	keys := map[string]map[string]string{
		"generated key": nil,
		"passphrase":    {"PLINTH_PASSPHRASE": "correct horse"},
	}
	up := []string{"up", "--yes", "--lock-timeout", "2m"}
	pairs := map[string][2][]string{
		"two updates":                     {up, up},
		"an update and config set secret": {up, {"config", "set", "--secret", "extra", "v1"}},
	}
	for backend, backendEnv := range backends(t) {
		for key, keyEnv := range keys {
			for pair, commands := range pairs {
				t.Run(backend+"/"+key+"/"+pair, func(t *testing.T) {
					for range 3 {
						env := backendEnv(t) // a fresh database for each stack
						for k, v := range keyEnv {
							env = setEnv(env, k, v)
						}
						firstUpdatesAtOnce(t, bin, env, commands)
					}
				})
			}
		}
	}
}

// firstUpdatesAtOnce runs two commands that create a new stack at once
// (at least one of them `up`) and checks the stack afterwards.
func firstUpdatesAtOnce(t *testing.T, bin string, env map[string]string, commands [2][]string) {
	t.Helper()
	dir := clitest.CopyDir(t, filepath.Join("testdata", "secretout"))
	plinth := binaryRunner(bin, dir, env)
	var wg sync.WaitGroup
	var outs [2]string
	var errs [2]error
	for i, args := range commands {
		wg.Go(func() { outs[i], errs[i] = plinth(args...) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("plinth %s, one of two commands at once: %v\n%s\nthe other:\n%s", strings.Join(commands[i], " "), err, outs[i], outs[1-i])
		}
	}
	if out, err := plinth("preview"); err != nil {
		t.Fatalf("preview after two first commands at once: %v\n%s", err, out)
	}
	wantSecrets(t, plinth, commands, "after two first commands at once")
	if env["PLINTH_PASSPHRASE"] == "" {
		return
	}
	cfgPath := filepath.Join(dir, "plinth.dev.yaml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil || !strings.Contains(string(cfg), "encryptionsalt:") {
		t.Fatalf("plinth.dev.yaml holds no encryptionsalt (%v):\n%s", err, cfg)
	}
	// Without the committed line the salt comes from the store alone.
	noSalt := regexp.MustCompile(`(?m)^encryptionsalt:.*\n`).ReplaceAll(cfg, nil)
	if err := os.WriteFile(cfgPath, noSalt, 0o644); err != nil {
		t.Fatal(err)
	}
	wantSecrets(t, plinth, commands, "with the salt from the store alone")
}

// wantSecrets checks that `stack output --show-secrets` opens the
// secret output, and `config get` the secret config value if one of
// commands set it.
func wantSecrets(t *testing.T, plinth func(args ...string) (string, error), commands [2][]string, when string) {
	t.Helper()
	out, err := plinth("stack", "output", "--show-secrets")
	if err != nil || !regexp.MustCompile(`token\s+"hunter2"`).MatchString(out) {
		t.Fatalf("stack output %s: %v, want the secret token shown\n%s", when, err, out)
	}
	if commands[1][0] != "config" {
		return
	}
	if out, err := plinth("config", "get", "extra"); err != nil || out != "v1\n" {
		t.Fatalf("config get %s: %v, want the secret config value\n%s", when, err, out)
	}
}

// binaryRunner returns a function that runs the plinth binary in dir
// with env added to the test's environment, and returns its output.
func binaryRunner(bin, dir string, env map[string]string) func(args ...string) (string, error) {
	home := filepath.Join(dir, ".home")
	return func(args ...string) (string, error) {
		cmd := exec.Command(bin, append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "PLINTH_HOME="+home, "NO_COLOR=1", "PLINTH_BACKEND=", "PLINTH_PASSPHRASE=")
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
}

// setEnv returns env with k set to v, env itself unchanged.
func setEnv(env map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for ek, ev := range env {
		if ek != k {
			out[ek] = ev
		}
	}
	return out
}
