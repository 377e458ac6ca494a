package crash_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// processes lists the running processes whose executable is binary and,
// when parent is not 0, whose parent is parent. Zombies have no
// executable, so a process that exited and awaits reaping is not listed.
func processes(binary string, parent int) []int {
	var out []int
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, stat := range stats {
		dir := filepath.Dir(stat)
		if exe, err := os.Readlink(filepath.Join(dir, "exe")); err != nil || exe != binary {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(dir))
		if parent == 0 || parentOf(stat) == parent {
			out = append(out, pid)
		}
	}
	return out
}

// parentOf reads the parent's pid from a /proc/<pid>/stat file: "pid
// (comm) state ppid ...", where comm may hold spaces and parentheses.
func parentOf(stat string) int {
	data, err := os.ReadFile(stat)
	if err != nil {
		return -1
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 2 {
		return -1
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}
