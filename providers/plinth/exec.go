package plinth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"

	"github.com/plinth-iac/plinth/internal/plugin/proc"
	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// CommandArgs are the inputs of plinth:exec:Command.
type CommandArgs struct {
	Create      string            `plinth:"create" doc:"Run with sh -c when the resource is created."`
	Update      string            `plinth:"update,optional" doc:"Run when an input other than triggers changes; the create command runs if this is empty."`
	Delete      string            `plinth:"delete,optional" doc:"Run when the resource is deleted."`
	Environment map[string]string `plinth:"environment,optional" doc:"Variables added to plinth's environment for the commands."`
	Dir         string            `plinth:"dir,optional" doc:"Working directory of the commands; relative to the provider's root, which is the default."`
	Triggers    []resource.Value  `plinth:"triggers,optional,replaceOnChanges" doc:"Arbitrary values; changing any of them replaces the resource, running delete then create."`
}

// CommandState are the outputs of plinth:exec:Command.
type CommandState struct {
	CommandArgs
	Stdout string `plinth:"stdout" doc:"What the last create or update command wrote to standard output, without trailing newlines; a secret if any input is."`
	Stderr string `plinth:"stderr" doc:"What the last create or update command wrote to standard error, without trailing newlines; a secret if any input is."`
}

// Command is plinth:exec:Command.
type Command struct{}

// Create runs the create command.
func (Command) Create(ctx context.Context, op provider.CreateOp[CommandArgs]) (provider.CreateResult[CommandState], error) {
	out, err := runCommand(ctx, "create", op.Inputs.Create, op.Inputs)
	if err != nil {
		return provider.CreateResult[CommandState]{}, err
	}
	return provider.CreateResult[CommandState]{ID: randomID(), Secrets: outputSecrets(op.Secrets),
		Outputs: CommandState{CommandArgs: op.Inputs, Stdout: out.stdout, Stderr: out.stderr}}, nil
}

// Update runs the update command, or the create command if there is none.
func (Command) Update(ctx context.Context, op provider.UpdateOp[CommandArgs, CommandState]) (provider.UpdateResult[CommandState], error) {
	which, script := "update", op.News.Update
	if script == "" {
		which, script = "create", op.News.Create
	}
	out, err := runCommand(ctx, which, script, op.News)
	if err != nil {
		return provider.UpdateResult[CommandState]{}, err
	}
	return provider.UpdateResult[CommandState]{Secrets: outputSecrets(op.Secrets),
		Outputs: CommandState{CommandArgs: op.News, Stdout: out.stdout, Stderr: out.stderr}}, nil
}

// outputSecrets makes stdout and stderr secret when any input is: a command
// may well print what it was given.
func outputSecrets(secretInputs []string) []string {
	if len(secretInputs) == 0 {
		return nil
	}
	return []string{"stdout", "stderr"}
}

// Delete runs the delete command, if any, with the inputs it was created
// with.
func (Command) Delete(ctx context.Context, op provider.DeleteOp[CommandArgs, CommandState]) error {
	if op.Inputs.Delete == "" {
		return nil
	}
	_, err := runCommand(ctx, "delete", op.Inputs.Delete, op.Inputs)
	return err
}

type commandOutput struct {
	stdout, stderr string
}

// outputLimit bounds how much of each stream is kept in state.
const outputLimit = 1 << 20

// runCommand runs script with sh -c, tied to plinth's life
// (proc.StartChild): the command and everything it started are stopped
// when ctx ends, and killed if plinth dies.
func runCommand(ctx context.Context, which, script string, in CommandArgs) (commandOutput, error) {
	dir, err := config(ctx).resolve(in.Dir)
	if err != nil {
		return commandOutput{}, err
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.Dir, cmd.Env = dir, commandEnv(in.Environment)
	stdout, stderr := &headWriter{limit: outputLimit}, &headWriter{limit: outputLimit}
	tail := &tailWriter{limit: 2048}
	cmd.Stdout, cmd.Stderr = stdout, io.MultiWriter(stderr, tail)
	if err = proc.StartChild(cmd); err == nil {
		err = cmd.Wait()
	}
	out := commandOutput{stdout: trimNewlines(stdout.String()), stderr: trimNewlines(stderr.String())}
	if err != nil {
		return out, commandError(ctx, which, err, tail.String())
	}
	return out, nil
}

// commandEnv is plinth's environment with the resource's variables added,
// in a stable order.
func commandEnv(extra map[string]string) []string {
	env := os.Environ()
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+extra[k])
	}
	return env
}

// commandError describes a failed command by its role (not its text, which
// may hold secrets), its exit status and the end of its stderr.
func commandError(ctx context.Context, which string, err error, stderrTail string) error {
	if ctx.Err() != nil {
		return fmt.Errorf("the %s command was stopped: %w", which, context.Cause(ctx))
	}
	var exit *exec.ExitError
	msg := fmt.Sprintf("the %s command failed: %v", which, err)
	if errors.As(err, &exit) {
		msg = fmt.Sprintf("the %s command exited with status %d", which, exit.ExitCode())
	}
	if tail := strings.TrimSpace(stderrTail); tail != "" {
		msg += "; the end of its stderr:\n" + tail
	}
	return errors.New(msg)
}

func trimNewlines(s string) string { return strings.TrimRight(s, "\r\n") }

// headWriter keeps the first limit bytes written to it and counts the rest.
type headWriter struct {
	limit   int
	buf     bytes.Buffer
	dropped int
}

func (w *headWriter) Write(p []byte) (int, error) {
	room := w.limit - w.buf.Len()
	if room >= len(p) {
		return w.buf.Write(p)
	}
	w.buf.Write(p[:max(room, 0)])
	w.dropped += len(p) - max(room, 0)
	return len(p), nil
}

func (w *headWriter) String() string {
	if w.dropped > 0 {
		return w.buf.String() + fmt.Sprintf("\n[%d more bytes not kept]", w.dropped)
	}
	return w.buf.String()
}

// tailWriter keeps the last limit bytes written to it.
type tailWriter struct {
	limit int
	buf   []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	if over := len(w.buf) - w.limit; over > 0 {
		w.buf = append(w.buf[:0], w.buf[over:]...)
	}
	return len(p), nil
}

func (w *tailWriter) String() string { return string(w.buf) }
