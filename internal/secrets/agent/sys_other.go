//go:build !linux

package agent

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"syscall"
)

// Supported says whether this platform can run the agent: it needs the
// kernel's word on who is at the other end of a socket, which this
// package reads only on Linux (SO_PEERCRED).
const Supported = false

var errUnsupported = errors.New("the key agent runs only on Linux")

func owner(fs.FileInfo) (int, bool)      { return 0, false }
func peerUID(*net.UnixConn) (int, error) { return 0, errUnsupported }
func detached() *syscall.SysProcAttr     { return nil }
func hardenProcess()                     {}
func tryLock(*os.File) bool              { return false }
func lockedBytes(b []byte) ([]byte, func()) {
	c := append([]byte(nil), b...)
	return c, func() { clear(c) }
}
