package proc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// WaitDelay is how long a process's output may stay open after it exits
// (a child it left holding the pipes) before the readers are ended.
const WaitDelay = 2 * time.Second

// Process is a started plugin.
type Process struct {
	// Cmd is the started command; do not call its Wait.
	Cmd *exec.Cmd
	// Stdout and Stderr read the plugin's output. They end (io.EOF) once
	// the process has exited and its output is drained, or WaitDelay
	// after it exited.
	Stdout, Stderr io.ReadCloser

	done chan struct{} // closed when the process has exited and been reaped
	err  error         // set before done is closed
}

// Start starts cmd as a plugin: in a process group of its own and, on
// Linux, with SIGKILL as its parent-death signal, forked from the
// long-lived spawner thread. cmd's Stdout and Stderr must be unset.
func Start(cmd *exec.Cmd) (*Process, error) {
	if cmd.Stdout != nil || cmd.Stderr != nil {
		return nil, errors.New("proc.Start: the command's output is already taken")
	}
	outR, outW := io.Pipe()
	errR, errW := io.Pipe()
	cmd.Stdout, cmd.Stderr = outW, errW
	cmd.WaitDelay = WaitDelay
	tie(cmd)
	if err := spawn(cmd); err != nil {
		return nil, err
	}
	p := &Process{Cmd: cmd, Stdout: outR, Stderr: errR, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		outW.Close()
		errW.Close()
		close(p.done)
	}()
	return p, nil
}

// Done is closed when the process has exited and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait waits for the process to exit and returns how it ended.
func (p *Process) Wait() error {
	<-p.done
	return p.err
}

// Exited reports whether the process has exited.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Signal sends sig to the plugin process alone.
func (p *Process) Signal(sig os.Signal) error {
	return p.Cmd.Process.Signal(sig)
}

// Kill kills the plugin's process group: the plugin and every child it
// started that stayed in the group. It is safe to call after the plugin
// exited (its children may not have).
func (p *Process) Kill() error {
	err := killGroup(p.Cmd.Process.Pid)
	if errors.Is(err, syscall.ESRCH) {
		err = nil
	}
	if kerr := p.Cmd.Process.Kill(); kerr != nil && !errors.Is(kerr, os.ErrProcessDone) && err == nil {
		err = kerr
	}
	return err
}

// spawner forks every plugin from one OS thread that lives as long as
// plinth (see the package comment). It is process-wide by nature: the
// death signal belongs to the forking thread.
var spawner struct {
	once sync.Once
	reqs chan spawnRequest
}

type spawnRequest struct {
	cmd  *exec.Cmd
	done chan error
}

func spawn(cmd *exec.Cmd) error {
	if err := startOnSpawner(cmd); err != nil {
		return fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	return nil
}

// startOnSpawner starts cmd from the spawner thread.
func startOnSpawner(cmd *exec.Cmd) error {
	spawner.once.Do(func() {
		spawner.reqs = make(chan spawnRequest)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread must outlive every plugin
			for r := range spawner.reqs {
				r.done <- r.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	spawner.reqs <- spawnRequest{cmd, done}
	return <-done
}

// StartTied starts cmd tied to plinth's life as a plugin is (a process
// group of its own and, on Linux, SIGKILL when plinth dies) but leaves
// its output and Wait to the caller. It is for a program plinth runs that
// only talks to plinth, such as a Pulumi program's language runtime: it
// has nothing to finish once plinth is gone.
func StartTied(cmd *exec.Cmd) error {
	tie(cmd)
	return spawn(cmd)
}
