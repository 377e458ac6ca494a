//go:build unix

package engine_test

import (
	"syscall"
	"time"
)

// cpuTime is the user and system CPU the test process has used so far:
// on a loaded machine the benchmarks' wall time says little, their CPU
// time still says what a resource costs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
