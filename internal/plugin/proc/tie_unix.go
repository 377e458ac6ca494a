//go:build unix && !linux

package proc

import (
	"os/exec"
	"syscall"
)

// tie gives the plugin a process group of its own. Only Linux has a
// parent-death signal; elsewhere a plugin outlives a plinth killed with
// SIGKILL until it notices its engine is gone.
func tie(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

func killGroup(pid int) error { return syscall.Kill(-pid, syscall.SIGKILL) }

// deathSignal is SIGHUP, which a reaper also treats as plinth's death
// (nothing else sends it to a process group of its own).
const deathSignal = syscall.SIGHUP

// tieChild gives a child's reaper a process group of its own, which it
// leads; the reaper watches its parent itself.
func tieChild(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// nameReaper does nothing: the reaper is started by its binary's own
// path, and has its name already.
func nameReaper() {}
