package pulumigo_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestPlinthKillStopsItsGoProgram: a Go program's process dies with
// plinth, even while it is not talking to plinth when plinth is killed
// with SIGKILL (it would otherwise live on until its next call to the
// engine failed; here, a minute). plinth runs as its own binary, built
// here, so that it can be killed.
func TestPlinthKillStopsItsGoProgram(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux ties a child to plinth's death (proc.TiesChildren)")
	}
	t.Parallel()
	plinth := filepath.Join(t.TempDir(), "plinth")
	if out, err := exec.Command("go", "build", "-o", plinth, "github.com/plinth-iac/plinth/cmd/plinth").CombinedOutput(); err != nil {
		t.Fatalf("building plinth: %v\n%s", err, out)
	}
	p := newGoProject(t, "idle")
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.Command(plinth, "-C", p.Dir, "up", "--yes", "--skip-preview")
	cmd.Env = append(os.Environ(), "PLINTH_PASSPHRASE=x", "PLINTH_KEY_AGENT=off", "PLINTH_HOME="+p.Opts.Env["PLINTH_HOME"], "IDLE_PIDFILE="+pidFile)
	out := &syncWriter{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	pid := awaitPid(t, pidFile, exited, out)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	killed := time.Now()
	const grace = 5 * time.Second
	for syscall.Kill(pid, 0) == nil && !zombie(pid) {
		if time.Since(killed) > grace {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the Go program's process %d outlived plinth by more than %s", pid, grace)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("the Go program's process was gone %s after plinth", time.Since(killed).Round(time.Millisecond))
}

// awaitPid waits for the program to write its pid to path; building it
// may take a while.
func awaitPid(t *testing.T, path string, exited <-chan struct{}, out *syncWriter) int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if data, err := os.ReadFile(path); err == nil && len(data) > 0 {
			pid, err := strconv.Atoi(string(data))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		select {
		case <-exited:
			t.Fatalf("plinth ended before the program started:\n%s", out.String())
		default:
		}
	}
	t.Fatal("the program did not start")
	return 0
}

// zombie reports whether pid has exited and waits to be reaped.
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
