//go:build linux

package grpcplugin

import (
	"bufio"
	"bytes"
	"os"
	"strconv"

	"github.com/plinth-iac/plinth/internal/plugin/proc"
)

// PeakRSS is the peak resident memory in bytes of the running plugin
// process p (VmHWM in /proc/<pid>/status); 0 if unknown or if it has
// exited. It must be read before the process is stopped: the rusage of
// its reap is no measure, because Go starts a child sharing the parent's
// memory (vfork) and the kernel carries the parent's peak into the
// child's at exec, so a plugin started by a plinth of 300 MB would be
// recorded as using 300 MB.
func PeakRSS(p *proc.Process) uint64 {
	if p == nil || p.Cmd == nil || p.Cmd.Process == nil || p.Exited() {
		return 0
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(p.Cmd.Process.Pid) + "/status")
	if err != nil {
		return 0
	}
	return vmHWM(data)
}

// vmHWM reads the VmHWM line of a /proc/<pid>/status, in bytes; 0 if
// there is none (a zombie has none).
func vmHWM(status []byte) uint64 {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmHWM:"))
		if !ok {
			continue
		}
		kb, ok := bytes.CutSuffix(bytes.TrimSpace(rest), []byte(" kB"))
		if !ok {
			return 0
		}
		n, err := strconv.ParseUint(string(bytes.TrimSpace(kb)), 10, 64)
		if err != nil {
			return 0
		}
		return n * 1024
	}
	return 0
}
