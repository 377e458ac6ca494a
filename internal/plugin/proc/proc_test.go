package proc_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/plugin/proc"
	"github.com/plinth-iac/plinth/internal/plugin/proc/proctest"
)

// The test binary plays four parts, chosen by PROC_TEST_ROLE: "plinth"
// starts a plugin with proc.Start and prints its PID; "plugin" starts a
// child that keeps its output open, prints the child's PID and sleeps;
// "child" sleeps; "plinth-with-command" runs PROC_TEST_SCRIPT with
// proc.StartChild (child_test.go). It is also a child's reaper when
// proc.StartChild starts it as one.
func TestMain(m *testing.M) {
	switch os.Getenv("PROC_TEST_ROLE") {
	case "plinth":
		p, err := proc.Start(selfAs("plugin"))
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		// Wait until the plugin is up (it printed its child's PID), so
		// that it is not killed by writing to a closed pipe instead.
		child, _ := bufio.NewReader(p.Stdout).ReadString('\n')
		fmt.Println(p.Cmd.Process.Pid, strings.TrimSpace(child))
		go drain(p.Stdout)
		go drain(p.Stderr)
		time.Sleep(time.Hour)
	case "plugin":
		c := selfAs("child")
		c.Stdout, c.Stderr = os.Stdout, os.Stderr // the child holds the pipes
		if err := c.Start(); err != nil {
			os.Exit(1)
		}
		fmt.Println(c.Process.Pid)
		time.Sleep(time.Hour)
	case "child":
		time.Sleep(time.Hour)
	case "plinth-with-command":
		runCommandAsPlinth()
	default:
		os.Exit(m.Run())
	}
}

func selfAs(role string) *exec.Cmd {
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "PROC_TEST_ROLE="+role)
	return cmd
}

func drain(r interface{ Read([]byte) (int, error) }) {
	b := make([]byte, 4096)
	for {
		if _, err := r.Read(b); err != nil {
			return
		}
	}
}

// TestPluginDiesWithPlinth: a plugin started by a plinth that is killed
// with SIGKILL exits within 5 s (the parent-death signal).
func TestPluginDiesWithPlinth(t *testing.T) {
	if !proctest.HasDeathSignal {
		t.Skip("no parent-death signal on this system")
	}
	plinth := selfAs("plinth")
	out, err := plinth.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := plinth.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	var pid, child int
	if _, serr := fmt.Sscan(line, &pid, &child); err != nil || serr != nil {
		plinth.Process.Kill()
		t.Fatalf("plinth said %q (%v)", line, err)
	}
	t.Cleanup(func() { syscall.Kill(-pid, syscall.SIGKILL) })
	if !proctest.Alive(pid) {
		t.Fatal("the plugin is not running")
	}
	plinth.Process.Kill()
	plinth.Wait()
	if !proctest.GoneWithin(pid, 5*time.Second) {
		t.Errorf("plugin %d still runs 5 s after plinth was killed", pid)
	}
}

// TestKillEndsChildrenAndOutput: Kill reaches the plugin's children
// through its process group, and the output readers end even though the
// child held the pipes.
func TestKillEndsChildrenAndOutput(t *testing.T) {
	p, err := proc.Start(selfAs("plugin"))
	if err != nil {
		t.Fatal(err)
	}
	go drain(p.Stderr)
	line, err := bufio.NewReader(p.Stdout).ReadString('\n')
	child, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		p.Kill()
		t.Fatalf("plugin said %q (%v)", line, err)
	}
	t.Cleanup(func() { syscall.Kill(child, syscall.SIGKILL) })
	go drain(p.Stdout)
	start := time.Now()
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(proc.WaitDelay + 5*time.Second):
		t.Fatal("the plugin was not reaped after Kill")
	}
	t.Logf("reaped %s after Kill", time.Since(start).Round(time.Millisecond))
	if !proctest.GoneWithin(child, 5*time.Second) {
		t.Errorf("the plugin's child %d survived Kill", child)
	}
}

// TestExitWithChildHoldingOutput: a plugin that exits while its child
// keeps the pipes open is reaped within WaitDelay, not when the child ends.
func TestExitWithChildHoldingOutput(t *testing.T) {
	p, err := proc.Start(selfAs("plugin"))
	if err != nil {
		t.Fatal(err)
	}
	go drain(p.Stderr)
	line, _ := bufio.NewReader(p.Stdout).ReadString('\n')
	child, _ := strconv.Atoi(strings.TrimSpace(line))
	t.Cleanup(func() { p.Kill() })
	go drain(p.Stdout)
	p.Signal(syscall.SIGKILL) // the plugin alone: its child lives on
	select {
	case <-p.Done():
	case <-time.After(proc.WaitDelay + 5*time.Second):
		t.Fatal("the plugin was not reaped while its child held its output")
	}
	if child > 0 && !proctest.Alive(child) {
		t.Log("the child is gone too (not required)")
	}
}

func TestTailIsBounded(t *testing.T) {
	tail := &proc.Tail{Lines: 20}
	line := strings.Repeat("x", 100) + "\n"
	for i := 0; i < 100000; i++ { // 10 MB
		tail.Write([]byte(line))
	}
	if got := len(tail.Get()); got != 20 {
		t.Errorf("kept %d lines, want 20", got)
	}
	huge := &proc.Tail{}
	chunk := []byte(strings.Repeat("y", 1<<20)) // one endless line of 64 MiB
	for i := 0; i < 64; i++ {
		huge.Write(chunk)
	}
	huge.Write([]byte("\nlast\n"))
	for i := 0; i < 2000; i++ {
		huge.Write([]byte(strings.Repeat("z", 1000) + "\n"))
	}
	if got := huge.Size(); got > proc.TailBytes {
		t.Errorf("kept %d bytes, want at most %d", got, proc.TailBytes)
	}
	if got := huge.Get(); len(got) == 0 || got[len(got)-1] != strings.Repeat("z", 1000) {
		t.Errorf("the last line was not kept")
	}
	cut := &proc.Tail{}
	cut.Write(chunk)
	cut.Write([]byte("\n"))
	if got := cut.Get(); len(got) != 1 || len(got[0]) != proc.LineBytes+len(" [...]") {
		t.Errorf("a long line was kept as %d bytes, want it cut at %d", len(got[0]), proc.LineBytes)
	}
}
