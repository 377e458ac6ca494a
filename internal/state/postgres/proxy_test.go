package postgres_test

import (
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
)

// cutMode says where cutProxy cuts a connection.
type cutMode int

const (
	// cutRequest drops the client's next message and closes the
	// connection: the server never sees it.
	cutRequest cutMode = iota + 1
	// cutAnswer passes the client's messages on and, when the server
	// first answers, drops the answer and closes the connection: the
	// server has run (and committed) what was asked.
	cutAnswer
)

func (m cutMode) String() string {
	return map[cutMode]string{cutRequest: "before the server saw it", cutAnswer: "after the server committed it"}[m]
}

// cutProxy forwards TCP connections to a PostgreSQL server and, once
// armed, cuts the next connection that sends or answers (see cutMode):
// it closes the server's side, calls ended, and then closes the client's.
type cutProxy struct {
	l      net.Listener
	target int // the server's port
	ended  func()
	mu     sync.Mutex
	mode   cutMode
	cut    bool
	// accepted counts the connections made through the proxy.
	accepted int
}

func newCutProxy(t *testing.T, port int, ended func()) *cutProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{l: l, target: port, ended: ended}
	t.Cleanup(func() { l.Close() })
	go p.serve()
	return p
}

// url is the test cluster's database URL u through the proxy.
func (p *cutProxy) url(u string) string {
	return strings.Replace(u, fmt.Sprintf(":%d/", p.target), fmt.Sprintf(":%d/", p.l.Addr().(*net.TCPAddr).Port), 1)
}

func (p *cutProxy) arm(m cutMode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mode = m
}

func (p *cutProxy) fired() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cut
}

// take reports whether data flowing in direction m should be cut, and
// disarms the proxy if so.
func (p *cutProxy) take(m cutMode) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode != m {
		return false
	}
	p.mode, p.cut = 0, true
	return true
}

func (p *cutProxy) serve() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		p.accepted++
		p.mu.Unlock()
		s, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", p.target))
		if err != nil {
			c.Close()
			continue
		}
		var once sync.Once // a close waits for a cut under way
		closeBoth := func() { once.Do(func() { s.Close(); c.Close() }) }
		cut := func() { once.Do(func() { s.Close(); p.ended(); c.Close() }) }
		go p.pipe(s, c, cutRequest, closeBoth, cut)
		go p.pipe(c, s, cutAnswer, closeBoth, cut)
	}
}

// pipe copies from src to dst until either ends, or cuts the connection
// when data flows while the proxy is armed with m.
func (p *cutProxy) pipe(dst io.Writer, src io.Reader, m cutMode, closeBoth, cut func()) {
	defer closeBoth()
	buf := make([]byte, 64<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if p.take(m) {
				cut()
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
