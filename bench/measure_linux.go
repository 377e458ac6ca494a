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

	"github.com/plinth-iac/plinth/internal/secrets/agent"
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
//   - Which child used what is sampled: every sampleEvery the harness
//     walks the command's descendants (/proc/<pid>/task/*/children) and
//     reads each one's utime+stime. The last sample of each is a lower
//     bound (a child's last moments fall between samples); report shows
//     the shortfall against the exact total as "unattributed".
//   - Peak RSS is the reap's ru_maxrss: the largest of the command and
//     its reaped descendants. Where the command starts no child (built-in
//     resources) it is the command's own peak.

// orphanWait is how long the harness waits for a command's orphans.
const orphanWait = 10 * time.Second

// sampleEvery is how often the children are sampled.
const sampleEvery = 20 * time.Millisecond

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
	stop, sampled := make(chan struct{}), make(chan map[string]time.Duration)
	go func() { sampled <- sampleChildren(cmd.Process.Pid, stop) }()
	var info unix.Siginfo
	waitErr := ignoringEINTR(func() error {
		return unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
	})
	u := usage{wall: time.Since(start)}
	close(stop)
	u.byProgram = <-sampled
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
	f, err := statFields(pid)
	if err != nil {
		return 0, err
	}
	return ticks(pid, f, 13, 14) // fields 16 and 17
}

// statFields reads /proc/<pid>/stat from field 3 (the state) on: the
// command name, field 2, may hold spaces.
func statFields(pid int) ([]string, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, err
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+2:]))
	if len(f) < 15 {
		return nil, fmt.Errorf("/proc/%d/stat has %d fields", pid, len(f)+2)
	}
	return f, nil
}

// ticks sums two clock-tick fields of statFields's result.
func ticks(pid int, f []string, i, j int) (time.Duration, error) {
	a, err1 := strconv.ParseInt(f[i], 10, 64)
	b, err2 := strconv.ParseInt(f[j], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: fields %d and %d are %q and %q", pid, i+3, j+3, f[i], f[j])
	}
	return time.Duration(a+b) * clockTick, nil
}

// sampleChildren samples the CPU of root's descendants until stop is
// closed and returns the last sample of each, summed by program name.
func sampleChildren(root int, stop <-chan struct{}) map[string]time.Duration {
	last := map[int]time.Duration{}
	names := map[int]string{}
	tick := time.NewTicker(sampleEvery)
	defer tick.Stop()
	for {
		for _, pid := range descendants(root) {
			if cpu, err := procCPU(pid); err == nil {
				// The name is read each time: a child sampled between
				// its fork and its exec still bears its parent's. A
				// zombie has none, and keeps the last.
				last[pid] = cpu
				if name := programName(pid); name != "" {
					names[pid] = name
				}
			}
		}
		select {
		case <-stop:
			byName := map[string]time.Duration{}
			for pid, cpu := range last {
				if names[pid] != "" { // else it shows as unattributed
					byName[names[pid]] += cpu
				}
			}
			return byName
		case <-tick.C:
		}
	}
}

// descendants lists pid's descendants, not pid itself.
func descendants(pid int) []int {
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", p))
		for _, t := range tasks {
			data, _ := os.ReadFile(t)
			for _, f := range strings.Fields(string(data)) {
				if kid, err := strconv.Atoi(f); err == nil {
					out, queue = append(out, kid), append(queue, kid)
				}
			}
		}
	}
	return out
}

// procCPU reads a live process's utime+stime.
func procCPU(pid int) (time.Duration, error) {
	f, err := statFields(pid)
	if err != nil {
		return 0, err
	}
	return ticks(pid, f, 11, 12) // fields 14 and 15
}

// programName is the base name of a process's argv[0], "" if it has
// none (a zombie, or gone); plinth's key agent is named as such.
func programName(pid int) string {
	if isKeyAgent(pid) {
		return "plinth key agent"
	}
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	if len(data) == 0 {
		return ""
	}
	return filepath.Base(string(data))
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
		f, err := statFields(pid)
		if err != nil {
			continue
		}
		if f[1] == strconv.Itoa(self) {
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
		if before[pid] || isKeyAgent(pid) {
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

// isKeyAgent tells plinth's key agent, a daemon that a command starts to
// outlive it and that serves the commands after it, from a command's
// orphans: the harness does not wait for it, and its CPU (well under a
// millisecond per command it serves) is nobody's.
func isKeyAgent(pid int) bool {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	args := strings.Split(string(data), "\x00")
	return len(args) > 1 && args[1] == agent.Command
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}
