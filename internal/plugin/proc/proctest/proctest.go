// Package proctest checks processes for tests of plugin lifetimes.
package proctest

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// HasDeathSignal reports whether this system kills a plugin when plinth
// dies (Linux's parent-death signal).
const HasDeathSignal = runtime.GOOS == "linux"

// Alive reports whether pid runs: it exists and is not a zombie waiting to
// be reaped (an orphan's reaper may be slow, or absent in a container).
func Alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return runtime.GOOS != "linux"
	}
	// pid (comm) state ...: the state follows the last ')'.
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}

// GoneWithin waits up to d for pid to stop running.
func GoneWithin(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if !Alive(pid) {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return !Alive(pid)
}
