//go:build unix

package state

import (
	"syscall"
	"time"
)

// cpuTime is the user and system CPU the test process has used so far,
// for benchmarks to report beside their wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
