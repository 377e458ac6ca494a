//go:build unix

package file

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with the PID exists on this host.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
