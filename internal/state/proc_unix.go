//go:build unix && !linux

package state

import (
	"errors"
	"syscall"
)

// ProcessStartTime is not available on this system: locks record no start
// time, and a live PID counts as possibly the holder.
func ProcessStartTime(int) (uint64, bool) { return 0, false }

// processAlive reports whether a process with the PID exists on this host.
func processAlive(pid int) (alive, known bool) {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM), true
}
