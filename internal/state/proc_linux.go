//go:build linux

package state

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
)

// ProcessStartTime returns when the process with the PID started, in
// clock ticks since boot (field 22 of /proc/PID/stat), and false if it
// cannot be read (no such process, or no /proc).
func ProcessStartTime(pid int) (uint64, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	return parseStartTime(data)
}

// parseStartTime reads field 22 of a /proc/PID/stat line. The second
// field, the command name in parentheses, may itself hold spaces and
// parentheses, so fields are counted after the last ')'.
func parseStartTime(stat []byte) (uint64, bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	fields := bytes.Fields(stat[i+1:])
	// fields[0] is field 3 (state), so field 22 is fields[19].
	if len(fields) < 20 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(fields[19]), 10, 64)
	return n, err == nil
}

// processAlive reports whether a process with the PID exists on this
// host; known is false where the system cannot tell.
func processAlive(pid int) (alive, known bool) {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM), true
}
