//go:build linux

// Package agenttest finds and ends the key agents a test started, so
// that none outlives the test (the agent is detached and would otherwise
// live until its keys expire). It reads /proc, so it works on Linux only,
// where the agent runs.
package agenttest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/secrets/agent"
)

// Pids returns the process ids of the agents serving dir: the processes
// whose command line is some binary, agent.Command and dir.
func Pids(dir string) []int {
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var out []int
	for _, f := range cmdlines {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		args := bytes.Split(bytes.TrimSuffix(b, []byte{0}), []byte{0})
		if len(args) == 3 && string(args[1]) == agent.Command && string(args[2]) == dir {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			out = append(out, pid)
		}
	}
	return out
}

// WaitFor polls until cond holds, failing the test after ten seconds.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
	}
}

// Cleanup ends, when the test ends, every agent serving dir, and fails
// the test if one does not go.
func Cleanup(t testing.TB, dir string) {
	t.Cleanup(func() {
		for _, pid := range Pids(dir) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		WaitFor(t, "no agent serves "+dir, func() bool { return len(Pids(dir)) == 0 })
	})
}

// Client returns a Client for a fresh agent directory of the test's
// whose agents are the test binary itself (its TestMain must run
// agent.Main for agent.Command), ended when the test ends.
func Client(t testing.TB) *agent.Client {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "agent")
	Cleanup(t, dir)
	return &agent.Client{Dir: dir, Start: []string{exe, agent.Command}, TTL: time.Minute}
}
