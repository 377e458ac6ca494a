//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// How the CPU split is measured, from outside the process and with no
// help from it:
//
//   - Its children's CPU is cutime+cstime from /proc/<pid>/stat (every
//     descendant it reaped), read while it is a zombie: the harness waits
//     for its exit with waitid(WNOWAIT), which leaves it unreaped, reads
//     the file, then reaps it. The kernel keeps those counters until the
//     reap. They are in clock ticks (USER_HZ, 100 a second on Linux):
//     10 ms resolution.
//   - The command's own CPU is the reap's rusage (wait4: the command and
//     the descendants it reaped, in microseconds) less its children's.
//   - A child the command did not reap (one that outlived it, or was
//     killed by its parent-death signal) would be in neither: the harness
//     is a child subreaper, so such orphans become its own children; it
//     waits for them (up to orphanWait) and adds their rusage to the
//     children's CPU, and the report counts them.
//   - Peak RSS is the reap's ru_maxrss: the largest of the command and
//     its reaped descendants. Where the command starts no child (built-in
//     resources) it is the command's own peak.

// orphanWait is how long the harness waits for a command's orphans.
const orphanWait = 10 * time.Second

// clockTick is the unit of /proc/<pid>/stat's times (USER_HZ).
const clockTick = 10 * time.Millisecond

// becomeSubreaper makes the harness the reaper of its commands' orphans.
func becomeSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// measure runs cmd (not started) to its end and returns what it used.
func measure(cmd *exec.Cmd) (usage, error) {
	before := childPIDs()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return usage{}, err
	}
	var info unix.Siginfo
	waitErr := ignoringEINTR(func() error {
		return unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
	})
	u := usage{wall: time.Since(start)}
	kids, statErr := zombieChildrenCPU(cmd.Process.Pid)
	runErr := cmd.Wait()
	if waitErr != nil || statErr != nil {
		return u, fmt.Errorf("measuring %s: waitid: %v; stat: %v", filepath.Base(cmd.Path), waitErr, statErr)
	}
	st := cmd.ProcessState
	total := st.UserTime() + st.SystemTime()
	u.self, u.children = max(0, total-kids), kids
	u.maxRSS = st.SysUsage().(*syscall.Rusage).Maxrss * 1024
	orphans, orphanCPU := reapOrphans(before)
	u.orphans, u.children = orphans, u.children+orphanCPU
	return u, runErr
}

// zombieChildrenCPU reads cutime+cstime of an exited, unreaped process:
// the CPU of the children it reaped.
func zombieChildrenCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces: count from after it.
	rest := data[bytes.LastIndexByte(data, ')')+2:]
	f := strings.Fields(string(rest)) // f[0] is field 3 (state)
	if len(f) < 15 {
		return 0, fmt.Errorf("/proc/%d/stat has %d fields", pid, len(f)+2)
	}
	cutime, err1 := strconv.ParseInt(f[13], 10, 64) // field 16
	cstime, err2 := strconv.ParseInt(f[14], 10, 64) // field 17
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: cutime %q cstime %q", pid, f[13], f[14])
	}
	return time.Duration(cutime+cstime) * clockTick, nil
}

// childPIDs lists the harness's live children, from each process's
// parent in /proc (orphans adopted by a subreaper may hang off any of
// its threads, so /proc/self/task/*/children would need every thread).
func childPIDs() map[int]bool {
	self := os.Getpid()
	kids := map[int]bool{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+2:]))
		if len(f) > 1 && f[1] == strconv.Itoa(self) {
			kids[pid] = true
		}
	}
	return kids
}

// reapOrphans waits for the children the harness adopted since before
// (a command's orphans) and returns how many and their CPU.
func reapOrphans(before map[int]bool) (int, time.Duration) {
	var n int
	var cpu time.Duration
	deadline := time.Now().Add(orphanWait)
	for pid := range childPIDs() {
		if before[pid] {
			continue
		}
		n++
		for {
			var ru syscall.Rusage
			got, err := syscall.Wait4(pid, nil, syscall.WNOHANG, &ru)
			if got == pid {
				cpu += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
				break
			}
			if err != nil && err != syscall.EINTR || time.Now().After(deadline) {
				fmt.Fprintf(os.Stderr, "bench: process %d outlived the command that started it; its CPU is not counted\n", pid)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return n, cpu
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}
