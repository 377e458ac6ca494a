package clitest

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Proc is a live process as /proc shows it.
type Proc struct {
	PID, PPID, Group int
	// Exe is the binary it runs, "" where the link cannot be read (a
	// process of another user, or one that just exited).
	Exe string
}

// Procs lists the live processes (zombies left out) from /proc. Where
// there is no /proc it lists none, so a test that looks for leftovers
// there finds nothing to complain of.
func Procs() []Proc {
	var out []Proc
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, stat := range stats {
		p, ok := readProc(stat)
		if ok {
			out = append(out, p)
		}
	}
	return out
}

// readProc parses one /proc/<pid>/stat: pid (comm) state ppid pgrp ...,
// where comm may hold spaces and parentheses, so the fields are read
// after the last ')'.
func readProc(stat string) (Proc, bool) {
	data, err := os.ReadFile(stat)
	if err != nil {
		return Proc{}, false
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 3 || fields[0] == "Z" || fields[0] == "X" {
		return Proc{}, false
	}
	dir := filepath.Dir(stat)
	p := Proc{}
	p.PID, _ = strconv.Atoi(filepath.Base(dir))
	p.PPID, _ = strconv.Atoi(fields[1])
	p.Group, _ = strconv.Atoi(fields[2])
	p.Exe, _ = os.Readlink(filepath.Join(dir, "exe"))
	return p, true
}

// Children lists the live children of this test process that run one of
// binaries: a plugin still running after a command ended is one plinth
// forgot to close.
func Children(binaries ...string) []int {
	return pids(func(p Proc) bool { return p.PPID == os.Getpid() && slices.Contains(binaries, p.Exe) })
}

// Running lists every live process that runs one of binaries, whoever
// its parent.
func Running(binaries ...string) []int {
	return pids(func(p Proc) bool { return slices.Contains(binaries, p.Exe) })
}

// GroupMembers lists the live processes of a process group.
func GroupMembers(group int) []int {
	return pids(func(p Proc) bool { return p.Group == group })
}

func pids(keep func(Proc) bool) []int {
	var out []int
	for _, p := range Procs() {
		if keep(p) {
			out = append(out, p.PID)
		}
	}
	return out
}
