package clitest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// PetsYAML is a plinth.yaml of n plinth:random:Pet resources (r0, r1,
// ...), the program the front-end benchmarks compare others with.
func PetsYAML(n int) string {
	var y strings.Builder
	y.WriteString("name: bench\nresources:\n")
	for i := range n {
		fmt.Fprintf(&y, "  r%d:\n    type: plinth:random:Pet\n    properties: { length: 2 }\n", i)
	}
	return y.String()
}

// MeasureCPU runs f and returns the user and system CPU time this
// process used meanwhile (plinth, run in process) and that of the
// children it waited for (a program, its language's tools).
func MeasureCPU(f func()) (self, children time.Duration) {
	s0, c0 := cpuTime(syscall.RUSAGE_SELF), cpuTime(syscall.RUSAGE_CHILDREN)
	f()
	return cpuTime(syscall.RUSAGE_SELF) - s0, cpuTime(syscall.RUSAGE_CHILDREN) - c0
}

func cpuTime(who int) time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(who, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Tail is the last 2,000 bytes of s, for a failure message.
func Tail(s string) string {
	if len(s) > 2000 {
		return s[len(s)-2000:]
	}
	return s
}

// Created is how many resources the first up of n resources in dir
// reports created: n, and for a Pulumi program (a Pulumi.yaml in dir)
// one more, its stack, which pulumi's count includes.
func Created(dir string, n int) int {
	if _, err := os.Stat(filepath.Join(dir, "Pulumi.yaml")); err == nil {
		return n + 1
	}
	return n
}
