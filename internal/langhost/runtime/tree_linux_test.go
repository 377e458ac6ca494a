package runtime_test

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestCloseEndsWhatTheHostStarted: a process the host started in a
// process group of its own (as pulumi-language-yaml starts providers) is
// gone once the run ends, here by Ctrl-C.
func TestCloseEndsWhatTheHostStarted(t *testing.T) {
	h, p, record := fakeProject(t, "spawn")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ran := make(chan error, 1)
	var stdout, stderr bytes.Buffer
	go func() { ran <- h.Run(ctx, runRequest(p, &stdout, &stderr)) }()
	var pid int
	for deadline := time.Now().Add(10 * time.Second); pid == 0; time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(record); err == nil && len(data) > 0 {
			pid, _ = strconv.Atoi(string(data))
		}
		if time.Now().After(deadline) {
			t.Fatal("the host started nothing")
		}
	}
	cancel()
	<-ran
	for deadline := time.Now().Add(5 * time.Second); alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d, started by the host, is still running", pid)
		}
	}
}

// alive reports whether pid runs (a zombie waiting for its new parent to
// reap it does not).
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(data, ')')
	return i >= 0 && len(data) > i+2 && data[i+2] != 'Z'
}
