package agent

import (
	"io/fs"
	"net"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// Supported says whether this platform can run the agent: it needs the
// kernel's word on who is at the other end of a socket (SO_PEERCRED).
const Supported = true

// owner returns the uid that owns the file fi describes.
func owner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// peerUID returns the uid of the process at the other end of c, as the
// kernel recorded it when the connection was made (SO_PEERCRED): a
// client cannot claim another.
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, err
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return 0, err
	}
	if cerr != nil {
		return 0, cerr
	}
	return int(cred.Uid), nil
}

// detached are the attributes of the agent's process: a session of its
// own, so that it outlives the command and the terminal's signals.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// hardenProcess keeps the agent's memory out of core dumps and away from
// ptrace by other processes of the same user, as ssh-agent does.
func hardenProcess() { _ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) }

// tryLock takes an exclusive lock on f without waiting.
func tryLock(f *os.File) bool { return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil }

// lockedBytes returns a copy of b in memory the kernel will not swap out
// (a page of its own, locked), or in ordinary memory if that fails; free
// wipes and releases it.
func lockedBytes(b []byte) (buf []byte, free func()) {
	page, err := unix.Mmap(-1, 0, os.Getpagesize(), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil || len(b) > len(page) {
		buf = append([]byte(nil), b...)
		return buf, func() { clear(buf) }
	}
	_ = unix.Mlock(page) // best effort: RLIMIT_MEMLOCK may refuse
	buf = page[:len(b):len(b)]
	copy(buf, b)
	return buf, func() { clear(page); _ = unix.Munmap(page) }
}
