//go:build unix

package postgres

import (
	"net"
	"syscall"
)

// quiet reports whether the connection's socket has nothing to read and
// has not been closed by the server, without reading anything and
// without waiting: it peeks at the socket with MSG_DONTWAIT through
// Control, which takes no lock of the descriptor's. (RawConn.Read would
// take the read lock, which pgx's background reader keeps while it waits
// in a read, started after any write that took over 15 ms and left
// parked until the server next speaks: the peek then waited for ever.)
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
	err = raw.Control(func(fd uintptr) {
		var b [1]byte
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		idle = err == syscall.EAGAIN || err == syscall.EWOULDBLOCK
	})
	return err == nil && idle
}
