package crash_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// Built by TestMain: plinth, the test plugin in the directory that
// PLINTH_PLUGIN_PATH names, and plinth's own provider as a plugin in a
// directory of its own (children_test.go).
var (
	plinthBinary    string
	pluginDir       string
	pluginBinary    string
	plinthPluginDir string
)

// commandTimeout bounds every plinth command the harness runs: a command
// that hangs is a failure, never a stuck test.
const commandTimeout = 60 * time.Second

func TestMain(m *testing.M) {
	if runtime.GOOS != "linux" {
		fmt.Println("skipping: the crash harness finds provider processes through /proc, so it runs on Linux only")
		os.Exit(0)
	}
	code, err := buildAndRun(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(code)
}

func buildAndRun(m *testing.M) (int, error) {
	dir, err := os.MkdirTemp("", "e2e-crash")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		return 0, err
	}
	pluginDir = filepath.Join(dir, "plugins")
	pluginBinary = filepath.Join(pluginDir, "pulumi-resource-crash")
	plinthBinary = filepath.Join(dir, "bin", "plinth")
	plinthPluginDir = filepath.Join(dir, "plinth-plugin")
	if err := clitest.BuildCommands(map[string]string{
		"github.com/plinth-iac/plinth/cmd/plinth":                               plinthBinary,
		"github.com/plinth-iac/plinth/e2e/crash/internal/pulumi-resource-crash": pluginBinary,
		"github.com/plinth-iac/plinth/cmd/pulumi-resource-plinth":               filepath.Join(plinthPluginDir, "pulumi-resource-plinth"),
	}); err != nil {
		return 0, err
	}
	return m.Run(), nil
}

// result is what a finished plinth command did.
type result struct {
	args           []string
	code           int
	stdout, stderr string
}

func (r result) String() string {
	return fmt.Sprintf("plinth %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(r.args, " "), r.code, r.stdout, r.stderr)
}

// running is a plinth command started in the background, to be killed.
type running struct {
	args           []string
	cmd            *exec.Cmd
	ctx            context.Context
	cancel         context.CancelFunc
	stdout, stderr bytes.Buffer
	done           chan struct{}
	err            error
}

// start starts plinth in dir with env; the command is killed if it runs
// longer than commandTimeout.
func start(dir string, env []string, args ...string) (*running, error) {
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	r := &running{args: args, ctx: ctx, cancel: cancel, done: make(chan struct{})}
	r.cmd = exec.CommandContext(ctx, plinthBinary, args...)
	r.cmd.Dir, r.cmd.Env = dir, env
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	if err := r.cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("starting plinth %s: %w", strings.Join(args, " "), err)
	}
	go func() {
		r.err = r.cmd.Wait()
		cancel()
		close(r.done)
	}()
	return r, nil
}

// exited reports whether the command has ended.
func (r *running) exited() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// wait waits for the command to end and reports what it did. A command
// that ran out of commandTimeout is an error.
func (r *running) wait() (result, error) {
	<-r.done
	res := result{args: r.args, stdout: r.stdout.String(), stderr: r.stderr.String()}
	var exit *exec.ExitError
	switch {
	case r.err == nil:
	case errors.As(r.err, &exit):
		res.code = exit.ExitCode() // -1 when killed by a signal
	default:
		return res, fmt.Errorf("plinth %s: %w", strings.Join(r.args, " "), r.err)
	}
	if errors.Is(r.ctx.Err(), context.DeadlineExceeded) {
		return res, fmt.Errorf("plinth %s did not finish within %s\n%s", strings.Join(r.args, " "), commandTimeout, res)
	}
	return res, nil
}
