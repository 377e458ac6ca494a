package pulumi_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// children lists the processes this test process started that run
// binary, by reading /proc: a plugin still running after a command ended
// is one plinth forgot to close.
func children(binary string) []int {
	var out []int
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, stat := range stats {
		dir := filepath.Dir(stat)
		if exe, err := os.Readlink(filepath.Join(dir, "exe")); err != nil || exe != binary {
			continue
		}
		data, err := os.ReadFile(stat)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
		fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(os.Getpid()) {
			pid, _ := strconv.Atoi(filepath.Base(dir))
			out = append(out, pid)
		}
	}
	return out
}

// TestChildrenSeesAPlugin: the leak check above finds a running plugin,
// so its silence after a command means something.
func TestChildrenSeesAPlugin(t *testing.T) {
	cmd := exec.Command(pluginBinary, "127.0.0.1:1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		t.Fatalf("the plugin printed no port: %v", err)
	}
	if got := children(pluginBinary); !slices.Contains(got, cmd.Process.Pid) {
		t.Errorf("children = %v, want it to include the plugin's pid %d", got, cmd.Process.Pid)
	}
}
