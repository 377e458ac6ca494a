package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
	"github.com/plinth-iac/plinth/internal/state/postgres"
)

// stateBackend opens the backend a test's commands use: PLINTH_BACKEND's
// database (for the project of testdata/base), else the project's .plinth.
func stateBackend(t *testing.T, dir string, env map[string]string) state.Backend {
	t.Helper()
	url := env["PLINTH_BACKEND"]
	if url == "" {
		return file.New(filepath.Join(dir, ".plinth"))
	}
	b, err := postgres.Open(context.Background(), postgres.Config{URL: url, Project: "base"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// TestLockTimeout: with --lock-timeout a command waits for a lock another
// holds, saying once whom it waits for, and goes ahead when the lock is
// released, or fails naming the holder when it is not; without it, it
// fails at once, as before.
func TestLockTimeout(t *testing.T) {
	host, _ := os.Hostname()
	alice := state.LockHolder{PID: os.Getpid(), Host: host, User: "alice", Command: "plinth up", Started: time.Now().UTC().Truncate(time.Second)}
	waiting := "Waiting for the lock on stack dev, held by alice@" + host + " (pid " + itoa(os.Getpid()) + ", plinth up) since "
	for name, env := range backends(t) {
		t.Run(name, func(t *testing.T) {
			opts := clitest.Options{Env: env(t)}
			dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
			clitest.MustRun(t, dir, opts, "up", "--yes")
			b := stateBackend(t, dir, opts.Env)
			hold := func(t *testing.T) state.Unlocker {
				u, err := b.Lock(context.Background(), "dev", alice)
				if err != nil {
					t.Fatal(err)
				}
				return u
			}
			t.Run("released while it waits", func(t *testing.T) {
				u := hold(t)
				released := make(chan error, 1)
				go func() {
					time.Sleep(300 * time.Millisecond)
					released <- u.Unlock(context.Background())
				}()
				r := clitest.Run(t, dir, opts, "refresh", "--yes", "--lock-timeout", "20s")
				if err := <-released; err != nil {
					t.Fatal(err)
				}
				if r.Code != 0 || strings.Count(r.Stderr, waiting) != 1 || !strings.Contains(r.Stderr, "for up to 20s (--lock-timeout)") {
					t.Errorf("refresh waiting for a lock released after 300ms: exit %d, want 0 saying once %q\n%s", r.Code, waiting, r.Output())
				}
			})
			t.Run("held past the timeout", func(t *testing.T) {
				u := hold(t)
				defer u.Unlock(context.Background())
				start := time.Now()
				r := clitest.Run(t, dir, opts, "up", "--yes", "--lock-timeout=700ms")
				for _, want := range []string{waiting, "error: Stack is locked", "gave up after waiting 700ms: stack dev is locked by process " + itoa(os.Getpid()) + " of user alice on host " + host} {
					if r.Code != 1 || !strings.Contains(r.Stderr, want) {
						t.Errorf("up with the lock held past --lock-timeout: exit %d, want 1 saying %q\n%s", r.Code, want, r.Output())
					}
				}
				if took := time.Since(start); took < 700*time.Millisecond {
					t.Errorf("up gave up after %s, before its --lock-timeout of 700ms", took)
				}
			})
			t.Run("no timeout", func(t *testing.T) {
				u := hold(t)
				defer u.Unlock(context.Background())
				r := clitest.Run(t, dir, opts, "up", "--yes")
				if r.Code != 1 || !strings.Contains(r.Stderr, "Stack is locked") || strings.Contains(r.Stderr, "Waiting") || strings.Contains(r.Stderr, "gave up") {
					t.Errorf("up with the lock held and no --lock-timeout: exit %d, want 1 at once\n%s", r.Code, r.Output())
				}
			})
		})
	}
}

func TestLockTimeoutFlagSpelling(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	for args, want := range map[string]string{
		"-lock-timeout=5m":   "-lock-timeout=5m is written with one dash, as terraform spells its flags; plinth's long flags take two: --lock-timeout=5m",
		"--lock-timeout=-1s": "--lock-timeout -1s is negative",
	} {
		r := clitest.Run(t, dir, clitest.Options{}, "up", "--yes", args)
		if r.Code != 1 || !strings.Contains(r.Stderr, "Invalid command line") || !strings.Contains(r.Stderr, want) {
			t.Errorf("up %s: exit %d, want 1 saying %q\n%s", args, r.Code, want, r.Output())
		}
	}
}

// TestConcurrentUpsQueue: ten ups of one stack at once, with
// --lock-timeout, all succeed one after another (without it, one runs and
// nine fail "Stack is locked").
func TestConcurrentUpsQueue(t *testing.T) {
	if testing.Short() {
		t.Skip("ten updates")
	}
	for name, env := range backends(t) {
		t.Run(name, func(t *testing.T) {
			opts := clitest.Options{Env: env(t)}
			dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
			clitest.MustRun(t, dir, opts, "up", "--yes")
			results := make(chan clitest.Result, 10)
			for range 10 {
				go func() {
					results <- clitest.Run(t, dir, opts, "up", "--yes", "--lock-timeout", "2m")
				}()
			}
			waited := 0
			for range 10 {
				r := <-results
				if r.Code != 0 {
					t.Errorf("one of ten concurrent ups: exit %d\n%s", r.Code, r.Output())
				}
				if strings.Contains(r.Stderr, "Waiting for the lock on stack dev") {
					waited++
				}
			}
			var ops []struct{ Kind, Result string }
			out := clitest.MustRun(t, dir, opts, "stack", "history", "--json").Stdout
			if err := json.Unmarshal([]byte(out), &ops); err != nil {
				t.Fatalf("stack history --json: %v\n%s", err, out)
			}
			if len(ops) != 11 || waited == 0 {
				t.Errorf("the history holds %d operations, want 11 updates; %d of the ten waited, want some:\n%s", len(ops), waited, out)
			}
		})
	}
}
