package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"unsafe"
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

// nameReaper gives the reaper its binary's name as its command name
// (/proc/PID/comm, what ps and top show): started as /proc/self/exe, it
// would be "exe". It runs in init, on the main thread, whose name is the
// process's.
func nameReaper() {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	name, err := syscall.BytePtrFromString(filepath.Base(exe))
	if err != nil {
		return
	}
	syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_NAME, uintptr(unsafe.Pointer(name)), 0)
}
