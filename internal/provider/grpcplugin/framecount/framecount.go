// Package framecount is a test helper: a loopback TCP proxy between a
// gRPC client and server that counts the PING frames each side sends, so
// that a test can see how chatty a connection is beyond its calls.
//
// It reads HTTP/2 framing only (the client's preface, then 9-byte frame
// headers), forwarding every byte unchanged; it knows nothing of gRPC.
package framecount

import (
	"encoding/binary"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// preface is what an HTTP/2 client sends before its first frame.
const preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

const (
	framePing = 0x6
	flagAck   = 0x1
)

// Proxy forwards connections from its address to a target and counts the
// PING frames (not their acks) sent in each direction.
type Proxy struct {
	lis    net.Listener
	target string
	// ClientPings and ServerPings count the PINGs sent by the dialling
	// side and by the target.
	ClientPings, ServerPings atomic.Int64
	wg                       sync.WaitGroup
}

// Start listens on a loopback port and forwards to target until the test
// ends.
func Start(t testing.TB, target string) *Proxy {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{lis: lis, target: target}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() {
		lis.Close()
		p.wg.Wait()
	})
	return p
}

// Addr is the address to dial instead of the target.
func (p *Proxy) Addr() string { return p.lis.Addr().String() }

// Port is Addr's port.
func (p *Proxy) Port() int { return p.lis.Addr().(*net.TCPAddr).Port }

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		in, err := p.lis.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			in.Close()
			continue
		}
		go p.pipe(in, out, &p.ClientPings, true)
		go p.pipe(out, in, &p.ServerPings, false)
	}
}

// pipe copies frames from src to dst, counting non-ack PINGs into pings,
// and closes both ends when either fails.
func (p *Proxy) pipe(src, dst net.Conn, pings *atomic.Int64, client bool) {
	defer src.Close()
	defer dst.Close()
	if client {
		buf := make([]byte, len(preface))
		if _, err := io.ReadFull(src, buf); err != nil {
			return
		}
		if _, err := dst.Write(buf); err != nil {
			return
		}
	}
	head := make([]byte, 9)
	for {
		if _, err := io.ReadFull(src, head); err != nil {
			return
		}
		n := int(binary.BigEndian.Uint32(append([]byte{0}, head[:3]...)))
		if head[3] == framePing && head[4]&flagAck == 0 {
			pings.Add(1)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(src, body); err != nil {
			return
		}
		if _, err := dst.Write(append(head[:9:9], body...)); err != nil {
			return
		}
	}
}
