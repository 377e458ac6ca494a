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

// deathSignal is what the kernel sends a child's reaper when plinth dies.
const deathSignal = syscall.SIGHUP

// tieChild gives a child's reaper a process group of its own, which it
// leads, and deathSignal as its parent-death signal.
func tieChild(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = deathSignal
}
