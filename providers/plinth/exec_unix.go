//go:build unix

package plinth

import (
	"os/exec"
	"syscall"
)

// killProcessGroup runs the command in its own process group and makes
// cancellation kill the whole group, so a shell's children die with it.
func killProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
