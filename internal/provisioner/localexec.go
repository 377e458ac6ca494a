package provisioner

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/plinth-iac/plinth/internal/plugin/proc"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// LocalExec is Terraform's local-exec provisioner: it runs a command on
// the machine running plinth. It takes command (required), interpreter (a
// list: the program and its arguments before the command; default
// ["/bin/sh", "-c"]), working_dir, environment (a map added to plinth's
// own) and quiet (do not show the command).
type LocalExec struct {
	// Dir is where the command runs when working_dir is not set, and
	// what a relative working_dir is relative to; "" means plinth's own.
	Dir string
}

var _ provider.Provisioner = LocalExec{}

var localExecKeys = []string{"command", "interpreter", "working_dir", "environment", "quiet"}

// ValidateConfig checks that command is a string and the rest well typed.
func (LocalExec) ValidateConfig(_ context.Context, req provider.ValidateProvisionerRequest) (provider.ValidateProvisionerResponse, error) {
	fs := unknownKeys(req.Config, localExecKeys...)
	if v := req.Config["command"]; v.IsNull() {
		fs = append(fs, provider.CheckFailure{Property: "command", Reason: "local-exec needs a command to run"})
	}
	if _, err := localExecCommand(context.Background(), req.Config, ""); err != nil && !req.Config["command"].IsNull() {
		fs = append(fs, provider.CheckFailure{Reason: err.Error()})
	}
	return provider.ValidateProvisionerResponse{Failures: fs}, nil
}

// localExecCommand builds the command a configuration describes.
func localExecCommand(ctx context.Context, cfg resource.Object, base string) (*exec.Cmd, error) {
	command, err := str(cfg, "command")
	if err != nil {
		return nil, err
	}
	interp, err := strList(cfg, "interpreter")
	if err != nil {
		return nil, err
	}
	if len(interp) == 0 {
		interp = []string{"/bin/sh", "-c"}
	}
	env, err := strMap(cfg, "environment")
	if err != nil {
		return nil, err
	}
	dir, err := str(cfg, "working_dir")
	if err != nil {
		return nil, err
	}
	args := append(append([]string{}, interp[1:]...), command)
	cmd := exec.CommandContext(ctx, interp[0], args...)
	cmd.Dir, cmd.Env = inDir(base, dir), append(os.Environ(), env...)
	return cmd, nil
}

// Provision runs the command, streaming its output (stdout and stderr
// together) line by line. The command is tied to plinth's life
// (proc.StartChild): a cancelled ctx stops it and its children, and they
// are killed if plinth dies.
func (l LocalExec) Provision(ctx context.Context, req provider.ProvisionRequest) error {
	cmd, err := localExecCommand(ctx, req.Config, l.Dir)
	if err != nil {
		return fmt.Errorf("local-exec: %w", err)
	}
	command, _ := str(req.Config, "command")
	quiet := plain(req.Config["quiet"]).Bool()
	out := req.Output
	if out == nil {
		out = func(string) {}
	}
	if quiet {
		out("(local-exec): (output suppressed)")
	} else {
		out(fmt.Sprintf("Executing: %q", cmd.Args))
	}
	tail, err := runStreaming(cmd, func(l string) {
		if !quiet {
			out("(local-exec): " + l)
		}
	})
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("local-exec: command %q was stopped: %w", command, context.Cause(ctx))
	case err != nil:
		return fmt.Errorf("local-exec: running command %q: %w; output:\n%s", command, err, tail)
	}
	return nil
}

// runStreaming runs cmd, calling line for each line of its output, and
// returns the last lines of output for an error message.
func runStreaming(cmd *exec.Cmd, line func(string)) (string, error) {
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := proc.StartChild(cmd); err != nil {
		pw.Close()
		return "", err
	}
	done := make(chan []string)
	go func() {
		var last []string
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line(sc.Text())
			if last = append(last, sc.Text()); len(last) > 20 {
				last = last[1:]
			}
		}
		io.Copy(io.Discard, pr)
		done <- last
	}()
	err := cmd.Wait()
	pw.Close()
	last := <-done
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		err = fmt.Errorf("it exited with status %d", ee.ExitCode())
	}
	return strings.Join(last, "\n"), err
}

// Stop does nothing: a running command ends when Provision's context is
// cancelled.
func (LocalExec) Stop(context.Context) error { return nil }

// Close does nothing.
func (LocalExec) Close() error { return nil }

// inDir resolves path in base: a relative path (or "") is relative to
// base.
func inDir(base, path string) string {
	if base == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(base, path)
}
