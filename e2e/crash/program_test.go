package crash_test

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/langhost/nodejs/nodetest"
)

// TestPlinthKillStopsItsProgram: a Pulumi program's node process dies
// with plinth, even one that is not talking to plinth when plinth is
// killed (it would otherwise live on until its next call to the engine
// failed; here, a minute).
func TestPlinthKillStopsItsProgram(t *testing.T) {
	modules := nodetest.Modules(t, filepath.Join("..", "..", "examples", "pulumi-dynamic"))
	h := newHarness(t)
	h.env = append(h.env, "PLINTH_PASSPHRASE=crash")
	for _, f := range []string{"Pulumi.yaml", "index.js", "package.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "idle", f))
		if err == nil {
			err = os.WriteFile(filepath.Join(h.dir, f), data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	nodetest.Link(t, h.dir, modules)
	r, err := start(h.dir, h.env, "up", "--yes", "--stack", "dev")
	if err != nil {
		t.Fatal(err)
	}
	pid := awaitStarted(t, h.ledger+".started", r)
	r.cmd.Process.Signal(syscall.SIGKILL)
	r.wait()
	killed := time.Now()
	for syscall.Kill(pid, 0) == nil && !zombie(pid) {
		if time.Since(killed) > nodeGrace {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the program's node process %d outlived plinth by more than %s", pid, nodeGrace)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("the program's node process was gone %s after plinth", time.Since(killed).Round(time.Millisecond))
}

// awaitStarted waits for the program to write its pid to path.
func awaitStarted(t *testing.T, path string, r *running) int {
	t.Helper()
	for deadline := time.Now().Add(commandTimeout); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if data, err := os.ReadFile(path); err == nil && len(data) > 0 {
			pid, err := strconv.Atoi(string(data))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		if r.exited() {
			res, _ := r.wait()
			t.Fatalf("plinth ended before the program started: %s", res)
		}
	}
	t.Fatal("the program did not start")
	return 0
}

// zombie reports whether pid has exited and waits to be reaped (its
// parent, plinth, is dead, so init reaps it soon).
func zombie(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	for i := len(data) - 1; i > 0; i-- {
		if data[i] == ')' && i+2 < len(data) {
			return data[i+2] == 'Z'
		}
	}
	return false
}
