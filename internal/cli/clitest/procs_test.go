package clitest

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"testing"
)

// TestProcsSeesAChild: a child this test starts is found by its binary,
// by its parent and by its process group, and is gone once it exits.
func TestProcsSeesAChild(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("processes are read from /proc, which only Linux has")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep binary on PATH")
	}
	cmd := exec.Command(sleep, "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]int{
		"Children":     Children(exe),
		"Running":      Running(exe),
		"GroupMembers": GroupMembers(pid),
	} {
		if !slices.Contains(got, pid) {
			t.Errorf("%s = %v, want it to include the child %d", name, got, pid)
		}
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if got := GroupMembers(pid); len(got) > 0 {
		t.Errorf("GroupMembers after the child was reaped = %v, want none", got)
	}
}
