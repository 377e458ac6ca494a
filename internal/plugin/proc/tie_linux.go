package proc

import (
	"os/exec"
	"syscall"
)

// tie gives the plugin a process group of its own and SIGKILL as its
// parent-death signal.
func tie(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

func killGroup(pid int) error { return syscall.Kill(-pid, syscall.SIGKILL) }
