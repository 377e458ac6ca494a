//go:build unix

package proc

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// init turns this binary into a child's reaper when StartChild started it
// as one (see the package comment); it never returns then.
func init() {
	if parent, ok := os.LookupEnv(reaperEnv); ok {
		os.Exit(reap(parent, os.Args[1:]))
	}
}

// StartChild starts cmd, a command plinth runs for the user, tied to
// plinth's life: through a reaper (this binary again) that leads a
// process group holding the command and everything it starts, and kills
// that group with SIGKILL when plinth dies. cmd must be made with
// exec.CommandContext; when its context ends the group is sent SIGTERM,
// then SIGKILL after Grace. StartChild sets cmd's Cancel and WaitDelay;
// wait for the command with cmd.Wait as usual. Its exit status is the
// command's.
func StartChild(cmd *exec.Cmd) error {
	if cmd.Err != nil {
		return cmd.Err
	}
	self, err := executable()
	if err != nil {
		return fmt.Errorf("starting %s: finding plinth's own executable for its reaper: %w", cmd.Path, err)
	}
	path := cmd.Path
	cmd.Args = append([]string{reaperName, path}, cmd.Args...)
	cmd.Path = self
	cmd.Env = withReaper(cmd.Env, os.Getpid())
	tieChild(cmd)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = Grace + 2*time.Second
	if err := startOnSpawner(cmd); err != nil {
		return fmt.Errorf("starting %s: %w", path, err)
	}
	return nil
}

// executable is the path that starts this binary again. On Linux that is
// /proc/self/exe, which works even if the file was replaced since plinth
// started (an upgrade while it runs).
func executable() (string, error) {
	if runtime.GOOS == "linux" {
		return "/proc/self/exe", nil
	}
	return os.Executable()
}

// withReaper is env (the process's own if nil) with reaperEnv set to
// parent and no other value of it.
func withReaper(env []string, parent int) []string {
	if env == nil {
		env = os.Environ()
	}
	env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, reaperEnv+"=") })
	return append(env, reaperEnv+"="+strconv.Itoa(parent))
}

// Exit statuses of a reaper that could not run its command.
const (
	exitNoCommand = 125 // started without a command, or after plinth died
	exitNoStart   = 127 // the command would not start
)

// reap is the reaper's life: argv is the command's path, then its
// arguments from argv[0]. It returns the command's exit status, or
// never returns if it kills its group.
func reap(parentPID string, argv []string) int {
	os.Unsetenv(reaperEnv)
	nameReaper()
	parent, err := strconv.Atoi(parentPID)
	if err != nil || len(argv) < 2 {
		fmt.Fprintf(os.Stderr, "plinth: %s was started without a command to run (%s=%q)\n", reaperName, reaperEnv, parentPID)
		return exitNoCommand
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if os.Getppid() != parent {
		return exitNoCommand // plinth died before we listened for it
	}
	child := &exec.Cmd{Path: argv[0], Args: argv[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	if err := child.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "plinth: starting %s: %v\n", argv[0], err)
		return exitNoStart
	}
	done := make(chan struct{})
	go func() {
		child.Wait()
		close(done)
	}()
	return supervise(child, parent, sigs, done)
}

// supervise waits for the command. Plinth's death (the death signal, or
// on systems without one a changed parent) kills the group at once;
// SIGTERM or SIGINT from plinth stops it: SIGTERM to the group, SIGKILL
// after Grace or as soon as the command itself has ended, so nothing it
// started is left.
func supervise(child *exec.Cmd, parent int, sigs <-chan os.Signal, done <-chan struct{}) int {
	var poll <-chan time.Time
	if !TiesChildren {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		poll = t.C
	}
	var grace <-chan time.Time
	for {
		select {
		case <-done:
			if grace != nil {
				killOwnGroup(child)
			}
			return exitStatus(child.ProcessState)
		case sig := <-sigs:
			switch {
			case sig == deathSignal || os.Getppid() != parent:
				killOwnGroup(child)
			case grace == nil:
				grace = time.After(Grace)
				signalOwnGroup(child, syscall.SIGTERM)
			}
		case <-grace:
			killOwnGroup(child)
		case <-poll:
			if os.Getppid() != parent {
				killOwnGroup(child)
			}
		}
	}
}

// signalOwnGroup sends sig to the reaper's process group, the reaper
// included. A reaper that does not lead its group (it was not started by
// StartChild) signals its command alone rather than a group it does not
// own.
func signalOwnGroup(child *exec.Cmd, sig syscall.Signal) {
	if pg := syscall.Getpgrp(); pg == os.Getpid() {
		syscall.Kill(-pg, sig)
		return
	}
	child.Process.Signal(sig)
}

// killOwnGroup kills the group with SIGKILL, the reaper with it.
func killOwnGroup(child *exec.Cmd) {
	signalOwnGroup(child, syscall.SIGKILL)
	os.Exit(128 + int(syscall.SIGKILL))
}

// exitStatus ends the reaper as the command ended: with its exit code,
// or by the signal that killed it (for the signals whose default action
// Go restores), so plinth reads the command's own status.
func exitStatus(ps *os.ProcessState) int {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return ps.ExitCode()
	}
	sig := ws.Signal()
	if slices.Contains([]syscall.Signal{syscall.SIGKILL, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP}, sig) {
		signal.Reset(sig)
		syscall.Kill(os.Getpid(), sig)
		time.Sleep(time.Second) // the signal ends us; this is a fallback
	}
	return 128 + int(sig)
}
