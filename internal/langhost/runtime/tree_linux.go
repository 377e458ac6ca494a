package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// process is one process, told apart from a later one with the same pid
// by its start time.
type process struct {
	pid   int
	start string
}

// descendants lists the processes below pid, read from /proc: a language
// host starts provider plugins of its own (pulumi-language-yaml does, to
// read their schemas) in process groups of their own, which neither
// plinth's death signal nor a kill of the host's group reaches, and which
// outlive a host that is stopped before it closes them. It follows the
// children files (/proc/PID/task/TID/children) down from pid, reading
// only the host's own tree: reading every process's stat instead cost
// 40 to 100 ms at the end of every run on a machine running 190
// processes. A kernel without those files has every stat read.
func descendants(pid int) []process {
	if out, ok := childrenTree(pid); ok {
		return out
	}
	return scanAll(pid)
}

// childrenTree walks pid's tree through the children files; false if the
// kernel has none.
func childrenTree(pid int) ([]process, bool) {
	if _, err := os.Stat(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid)); err != nil {
		return nil, false
	}
	var out []process
	queue := []int{pid}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		for _, child := range childPIDs(next) {
			if p, _, ok := readStat(fmt.Sprintf("/proc/%d/stat", child)); ok {
				out = append(out, p)
				queue = append(queue, child)
			}
		}
	}
	return out, true
}

// childPIDs lists pid's children: each thread's children file lists those
// that thread started.
func childPIDs(pid int) []int {
	files, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var out []int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, field := range strings.Fields(string(data)) {
			if child, err := strconv.Atoi(field); err == nil {
				out = append(out, child)
			}
		}
	}
	return out
}

// scanAll finds pid's descendants by reading every process's parent.
func scanAll(pid int) []process {
	parent := map[int][]process{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, stat := range stats {
		p, ppid, ok := readStat(stat)
		if ok {
			parent[ppid] = append(parent[ppid], p)
		}
	}
	var out []process
	queue := []int{pid}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		for _, child := range parent[next] {
			out = append(out, child)
			queue = append(queue, child.pid)
		}
	}
	return out
}

// readStat reads a process's pid, parent and start time from its
// /proc/PID/stat. The command name (second field) may hold spaces and
// parentheses, so the fields are read after its last ')'.
func readStat(path string) (process, int, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return process{}, 0, false
	}
	s := string(data)
	end := strings.LastIndexByte(s, ')')
	pid, err := strconv.Atoi(strings.TrimSpace(s[:strings.IndexByte(s, ' ')]))
	if end < 0 || err != nil {
		return process{}, 0, false
	}
	fields := strings.Fields(s[end+1:])
	// fields[0] is the state, [1] the parent, [19] the start time
	// (field 22 of the whole line).
	if len(fields) < 20 {
		return process{}, 0, false
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return process{}, 0, false
	}
	return process{pid: pid, start: fields[19]}, ppid, true
}

// killLeft kills each process that is still the one listed (same pid,
// same start time).
func killLeft(ps []process) {
	for _, p := range ps {
		now, _, ok := readStat("/proc/" + strconv.Itoa(p.pid) + "/stat")
		if ok && now.start == p.start {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
	}
}
