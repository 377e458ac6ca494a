//go:build unix

package provisioner

import (
	"os/exec"
	"syscall"
)

// killGroup runs cmd in its own process group and makes cancelling it
// kill the whole group, so a shell's children end with it.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
