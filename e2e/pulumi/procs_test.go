package pulumi_test

import (
	"bufio"
	"os/exec"
	"slices"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// children lists the processes this test process started that run
// binary: a plugin still running after a command ended is one plinth
// forgot to close.
func children(binary string) []int { return clitest.Children(binary) }

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
