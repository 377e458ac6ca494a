package main

import (
	"bufio"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestSignalsStopGracefully: the plugin prints a port, and SIGINT or
// SIGTERM make it exit cleanly.
func TestSignalsStopGracefully(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(pluginPath, "127.0.0.1:1")
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(out).ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if port, err := strconv.Atoi(strings.TrimSpace(line)); err != nil || port <= 0 {
				t.Fatalf("first line %q is not a port", line)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Errorf("after %s the plugin exited with %v, want status 0", sig, err)
			}
		})
	}
}
