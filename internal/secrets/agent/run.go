package agent

import (
	"errors"
	"net"
	"os"
	"time"
)

// Command is the hidden argument that makes the plinth binary an agent:
// `plinth __key-agent DIR`, with the first key to hold written as a
// keep request on file descriptor 3 (a pipe, so that the key touches no
// disk and the starting command need not wait for the agent to listen).
const Command = "__key-agent"

// tick is how often the agent looks for expired keys and for its socket.
const tick = time.Second

// Main runs the agent of dir and returns the process's exit code. It
// serves until it holds no key, or until its socket is removed or
// replaced. An agent that finds another already serving dir hands its
// key to that one and exits, so two commands that start one at once
// leave one.
func Main(dir string) int {
	hardenProcess()
	var first request
	in := os.NewFile(3, "first key")
	if in == nil {
		return 2
	}
	err := readMessage(in, &first)
	in.Close()
	defer first.wipe()
	if err != nil || first.Op != opKeep || checkDir(dir, false) != nil {
		return 2
	}
	s := NewServer(os.Getuid())
	if r := s.handle(&first); r.Error != "" {
		return 2
	}
	l, alive, err := claim(dir, &first)
	if err != nil {
		return 1
	}
	if l != nil {
		s.Serve(l, tick, alive)
	}
	return 0
}

// claim makes this process dir's agent, returning its listener and the
// check that it still owns the socket; or hands req to the agent that
// already is, returning no listener. The lock file decides who is the
// agent: its holder, for as long as it lives.
func claim(dir string, req *request) (*net.UnixListener, func() bool, error) {
	lock, err := os.OpenFile(lockPath(dir), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, nil, err
	}
	c := &Client{Dir: dir}
	for deadline := time.Now().Add(2 * time.Second); ; {
		if tryLock(lock) {
			return listen(dir, lock)
		}
		if _, err := c.call(req, false); err == nil {
			lock.Close()
			return nil, nil, nil
		}
		if time.Now().After(deadline) {
			lock.Close()
			return nil, nil, errors.New("another agent holds the lock but does not answer")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// listen serves dir's socket, replacing one a dead agent left.
func listen(dir string, lock *os.File) (*net.UnixListener, func() bool, error) {
	path := socketPath(dir)
	_ = os.Remove(path)
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, nil, err
	}
	ours, err := os.Stat(path)
	if err != nil {
		l.Close()
		return nil, nil, err
	}
	alive := func() bool {
		cur, err := os.Stat(path)
		_ = lock // held, and locked, for as long as the agent serves
		return err == nil && os.SameFile(ours, cur)
	}
	return l, alive, nil
}
