//go:build linux

package grpcplugin

import (
	"os"
	"syscall"
)

// PeakRSS is the peak resident memory of an exited process in bytes, from
// its reap's rusage; 0 if unknown.
func PeakRSS(ps *os.ProcessState) uint64 {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > 0 {
		return uint64(ru.Maxrss) * 1024 // Linux counts KiB
	}
	return 0
}
