package pulumiyaml_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// children lists the processes of this test process that run binary,
// from /proc.
func children(binary string) []int {
	var out []int
	for _, p := range procs(binary) {
		if p.ppid == os.Getpid() {
			out = append(out, p.pid)
		}
	}
	return out
}

// running lists every live process that runs binary, whoever its parent:
// a plugin of this test's own build still running after a command ended
// is one nothing closed.
func running(binary string) []int {
	var out []int
	for _, p := range procs(binary) {
		out = append(out, p.pid)
	}
	return out
}

// killAll kills the processes (this test's own plugins, by pid).
func killAll(pids []int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

type proc struct{ pid, ppid int }

func procs(binary string) []proc {
	var out []proc
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, stat := range stats {
		dir := filepath.Dir(stat)
		if exe, err := os.Readlink(filepath.Join(dir, "exe")); err != nil || exe != binary {
			continue
		}
		data, err := os.ReadFile(stat)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
		fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
		if len(fields) < 2 || fields[0] == "Z" {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(dir))
		ppid, _ := strconv.Atoi(fields[1])
		out = append(out, proc{pid, ppid})
	}
	return out
}
