//go:build !unix

package postgres

import "net"

// quiet cannot peek at a socket here: every connection counts as not
// quiet, so the pool pings each before reuse (one round trip).
func quiet(net.Conn) bool { return false }
