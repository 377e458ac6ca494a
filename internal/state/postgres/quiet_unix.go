//go:build unix

package postgres

import (
	"net"
	"syscall"
)

// quiet reports whether the connection's socket has nothing to read and
// has not been closed by the server, without reading anything: it peeks
// at the socket (Go's sockets do not block, so the peek returns at once).
func quiet(conn net.Conn) bool {
	if tc, ok := conn.(interface{ NetConn() net.Conn }); ok { // TLS
		conn = tc.NetConn()
	}
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	idle := false
	err = raw.Read(func(fd uintptr) bool {
		var b [1]byte
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK)
		idle = err == syscall.EAGAIN || err == syscall.EWOULDBLOCK
		return true // never wait for data
	})
	return err == nil && idle
}
