//go:build !linux

package main

import (
	"os/exec"
	"syscall"
	"time"
)

// Outside Linux the harness cannot read an exited process's own CPU
// (see measure_linux.go): it reports the command and its children
// together, as the command's own, and no children's share.
func becomeSubreaper() error { return nil }

func measure(cmd *exec.Cmd) (usage, error) {
	start := time.Now()
	err := cmd.Run()
	u := usage{wall: time.Since(start)}
	if st := cmd.ProcessState; st != nil {
		u.self = st.UserTime() + st.SystemTime()
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			u.maxRSS = int64(ru.Maxrss) // bytes on darwin
		}
		u.splitUnknown = true
	}
	return u, err
}
