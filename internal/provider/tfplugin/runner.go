package tfplugin

import (
	"context"
	"io"
	"os/exec"
	"strconv"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin/runner"

	"github.com/plinth-iac/plinth/internal/plugin/proc"
)

// procRunner is go-plugin's view of a provider process started by
// plugin/proc: tied to plinth's life, in a process group of its own, with
// output that ends when the process does. go-plugin's own runner reads the
// process's pipes to their end before it reaps it, so a child that kept
// them open would hang Kill, and with it plinth.
type procRunner struct {
	cmd *exec.Cmd
	p   *proc.Process
}

var _ runner.Runner = (*procRunner)(nil)

// newRunner makes go-plugin's RunnerFunc: a command like cmd, with the
// environment go-plugin prepared for the handshake added to cmd's.
func newRunner(cmd *exec.Cmd) func(hclog.Logger, *exec.Cmd, string) (runner.Runner, error) {
	return func(_ hclog.Logger, spec *exec.Cmd, _ string) (runner.Runner, error) {
		c := exec.Command(cmd.Path, cmd.Args[1:]...)
		c.Dir = cmd.Dir
		c.Env = append(append([]string(nil), spec.Env...), cmd.Env...)
		return &procRunner{cmd: c}, nil
	}
}

func (r *procRunner) Start(context.Context) error {
	p, err := proc.Start(r.cmd)
	r.p = p
	return err
}

func (r *procRunner) Diagnose(context.Context) string { return "" }

func (r *procRunner) Stdout() io.ReadCloser { return r.p.Stdout }

func (r *procRunner) Stderr() io.ReadCloser { return r.p.Stderr }

func (r *procRunner) Name() string { return r.cmd.Path }

func (r *procRunner) Wait(context.Context) error { return r.p.Wait() }

// Kill kills the provider and its process group.
func (r *procRunner) Kill(context.Context) error {
	if r.p == nil {
		return nil
	}
	return r.p.Kill()
}

func (r *procRunner) ID() string {
	if r.p == nil {
		return ""
	}
	return strconv.Itoa(r.p.Cmd.Process.Pid)
}

func (r *procRunner) PluginToHost(network, addr string) (string, string, error) {
	return network, addr, nil
}

func (r *procRunner) HostToPlugin(network, addr string) (string, string, error) {
	return network, addr, nil
}
