package runtime

import (
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestDescendantsFollowsChildrenFiles: the walk through the children
// files finds the same processes (pids and start times), grandchildren
// included, as reading every process's parent does.
func TestDescendantsFollowsChildrenFiles(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 60 & sh -c 'sleep 60 & sleep 60 & wait' & wait")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, p := range scanAll(cmd.Process.Pid) {
			killLeft([]process{p})
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	byPID := func(a, b process) int { return a.pid - b.pid }
	var want []process
	for deadline := time.Now().Add(10 * time.Second); len(want) < 4; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the shell started %d processes, want 4", len(want))
		}
		want = slices.SortedFunc(slices.Values(scanAll(cmd.Process.Pid)), byPID)
	}
	got, ok := childrenTree(cmd.Process.Pid)
	if !ok {
		t.Skip("this kernel has no /proc/PID/task/TID/children files")
	}
	if diff := cmp.Diff(want, slices.SortedFunc(slices.Values(got), byPID), cmp.AllowUnexported(process{})); diff != "" {
		t.Errorf("children-file walk (-full scan +walk):\n%s", diff)
	}
	if diff := cmp.Diff(want, slices.SortedFunc(slices.Values(descendants(cmd.Process.Pid)), byPID), cmp.AllowUnexported(process{})); diff != "" {
		t.Errorf("descendants (-full scan +descendants):\n%s", diff)
	}
}
