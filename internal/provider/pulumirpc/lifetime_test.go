package pulumirpc

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/plugin/proc"
	"github.com/plinth-iac/plinth/internal/plugin/proc/proctest"
)

// plinthRole, set in a re-run of the test binary, makes it play plinth:
// launch the fault plugin at the path given and print its PID.
const plinthRole = "PULUMIRPC_TEST_PLINTH"

func init() {
	path := os.Getenv(plinthRole)
	if path == "" {
		return
	}
	faultPlugin = path
	p, err := Launch(context.Background(), faultConfig("", &logSink{}))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println(p.proc.Proc.Cmd.Process.Pid)
	time.Sleep(time.Hour)
}

// TestPluginDiesWithPlinth: SIGKILL plinth; its plugin is gone within 5 s.
func TestPluginDiesWithPlinth(t *testing.T) {
	if !proctest.HasDeathSignal {
		t.Skip("no parent-death signal on this system")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	plinth := exec.Command(exe)
	plinth.Env = append(os.Environ(), plinthRole+"="+faultPlugin)
	out, _ := plinth.StdoutPipe()
	if err := plinth.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		plinth.Process.Kill()
		t.Fatalf("plinth said %q", line)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	plinth.Process.Kill()
	plinth.Wait()
	if !proctest.GoneWithin(pid, 5*time.Second) {
		t.Errorf("plugin %d still runs 5 s after plinth was killed", pid)
	}
}

// TestCloseWithChildHoldingOutput: a plugin whose child keeps its pipes
// open is closed promptly, and the child is killed with it.
func TestCloseWithChildHoldingOutput(t *testing.T) {
	sink := &logSink{}
	cfg := faultConfig("forker", sink)
	cfg.CloseGrace = 200 * time.Millisecond
	p, err := Launch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	child := 0
	for deadline := time.Now().Add(5 * time.Second); child == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, l := range p.Stderr() {
			fmt.Sscanf(l, "child %d", &child)
		}
	}
	if child == 0 {
		t.Fatalf("the plugin did not report its child; stderr: %v", p.Stderr())
	}
	t.Cleanup(func() { syscall.Kill(child, syscall.SIGKILL) })
	start := time.Now()
	closed := make(chan struct{})
	go func() { p.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(cfg.CloseGrace + proc.WaitDelay + 5*time.Second):
		t.Fatal("Close hangs while the plugin's child holds its output")
	}
	t.Logf("closed in %s", time.Since(start).Round(time.Millisecond))
	if !proctest.GoneWithin(child, 5*time.Second) {
		t.Errorf("the plugin's child %d survived Close", child)
	}
}

// TestHandshakeTimeoutFromEnv: a plugin that never prints its port fails
// after the timeout set in the environment, naming the binary and the knob.
func TestHandshakeTimeoutFromEnv(t *testing.T) {
	t.Setenv(plugin.HandshakeTimeoutEnv, "700ms")
	cfg := faultConfig("silent", &logSink{})
	cfg.CloseGrace = 100 * time.Millisecond
	start := time.Now()
	p, err := Launch(context.Background(), cfg)
	if err == nil {
		p.Close()
		t.Fatal("Launch succeeded")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Launch took %s", took)
	}
	for _, w := range []string{faultPlugin, "did not print its port within 700ms", plugin.HandshakeTimeoutEnv} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
}

// TestLaunchCancelled: cancelling the context (a second Ctrl-C) ends a
// launch at once, whatever the timeout.
func TestLaunchCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	cfg := faultConfig("silent", &logSink{})
	cfg.StartTimeout, cfg.CloseGrace = time.Hour, 100*time.Millisecond
	start := time.Now()
	p, err := Launch(ctx, cfg)
	if err == nil {
		p.Close()
		t.Fatal("Launch succeeded")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("a cancelled Launch took %s", took)
	}
	if !strings.Contains(err.Error(), "cancelled") {
		t.Errorf("error %q does not say the start was cancelled", err)
	}
}

// TestStderrSpamIsBounded: what is kept of a plugin's stderr stays within
// proc.TailBytes however much it writes, and the plugin is not blocked.
func TestStderrSpamIsBounded(t *testing.T) {
	p := launch(t, "spam", &logSink{})
	if p.proc.Tail.Size() > proc.TailBytes {
		t.Errorf("kept %d bytes of stderr, want at most %d", p.proc.Tail.Size(), proc.TailBytes)
	}
	// Stderr is read on its own goroutine, which may still be catching up
	// with the 8 MiB the plugin wrote before it printed its port.
	latest := func(lines []string) bool {
		return len(lines) > 0 && strings.HasPrefix(lines[len(lines)-1], "started with fault spam")
	}
	lines := p.Stderr()
	for deadline := time.Now().Add(5 * time.Second); !latest(lines) && time.Now().Before(deadline); lines = p.Stderr() {
		time.Sleep(20 * time.Millisecond)
	}
	if !latest(lines) {
		t.Errorf("the last stderr line is not the latest: %q", lines[max(len(lines)-1, 0):])
	}
}
