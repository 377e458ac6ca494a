package langhost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"

	"github.com/plinth-iac/plinth/internal/plugin/proc"
)

// What every runtime's program process shares: the stack config in the
// environment, as Pulumi's SDKs read it, and the life of the process,
// tied to plinth's and interrupted when the operation is.

// ConfigEnv is the stack config as Pulumi's SDKs read it from the
// environment: PULUMI_CONFIG, a JSON object of "project:key" strings, and
// PULUMI_CONFIG_SECRET_KEYS, the JSON list of the secret ones.
func ConfigEnv(config map[string]string, secretKeys []string) ([]string, error) {
	if config == nil {
		config = map[string]string{}
	}
	cfg, err := json.Marshal(config)
	if err != nil {
		return nil, err
	}
	if secretKeys == nil {
		secretKeys = []string{}
	}
	keys, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	return []string{"PULUMI_CONFIG=" + string(cfg), "PULUMI_CONFIG_SECRET_KEYS=" + string(keys)}, nil
}

// RunChild runs a program's process until it exits or ctx ends; then it
// is interrupted (SIGINT, as Ctrl-C would) and, after grace (5 seconds
// if 0), killed. The process is tied to plinth (proc.StartTied): it dies
// with plinth even when plinth is killed. Output a child of the program
// keeps open is not waited for beyond a second. what names the process
// in a failure to start it ("node for the program in DIR").
func RunChild(ctx context.Context, cmd *exec.Cmd, grace time.Duration, what string) error {
	cmd.WaitDelay = time.Second
	if err := proc.StartTied(cmd); err != nil {
		return fmt.Errorf("starting %s: %w", what, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		return err
	case <-ctx.Done():
		return interrupt(cmd, exited, grace)
	}
}

// interrupt ends a program that must stop: SIGINT, then SIGKILL.
func interrupt(cmd *exec.Cmd, exited chan error, grace time.Duration) error {
	_ = cmd.Process.Signal(syscall.SIGINT)
	if grace == 0 {
		grace = 5 * time.Second
	}
	select {
	case err := <-exited:
		return err
	case <-time.After(grace):
		_ = cmd.Process.Kill()
		return <-exited
	}
}

// ExitCode is the code a program exited with, ok false when err is not
// an exit (the program did not start, or was not waited for).
func ExitCode(err error) (code int, ok bool) {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 0, false
	}
	return ee.ExitCode(), true
}

// KilledBy names the signal that ended a program, "" if it exited by
// itself (or err is not an exit): its exit code is then -1, which says
// nothing to a user.
func KilledBy(err error) string {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return ""
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fmt.Sprintf("%s (%s)", signalName(ws.Signal()), ws.Signal())
	}
	return ""
}

// signalName is a signal's conventional name, SIGKILL for 9.
func signalName(sig syscall.Signal) string {
	for _, s := range []struct {
		sig  syscall.Signal
		name string
	}{{syscall.SIGKILL, "SIGKILL"}, {syscall.SIGTERM, "SIGTERM"}, {syscall.SIGINT, "SIGINT"}, {syscall.SIGSEGV, "SIGSEGV"}, {syscall.SIGABRT, "SIGABRT"}} {
		if s.sig == sig {
			return s.name
		}
	}
	return fmt.Sprintf("signal %d", int(sig))
}
