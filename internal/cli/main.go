package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
)

// Exit codes.
const (
	ExitOK      = 0
	ExitError   = 1
	ExitChanges = 2 // preview --detailed-exitcode found changes
)

// app is one run of the command line: the environment and the global
// flags every command reads.
type app struct {
	env Env
	g   globals
	// scrub removes every secret the run has seen from what it writes:
	// the views use it, and standard error (diagnostics, plugin logs,
	// the final error) goes through it.
	scrub *display.Scrubber
	// interrupted is set by the first Ctrl-C: an operation's error is
	// then shown as an interruption.
	interrupted atomic.Bool
	// closers close what the command opened (database connections).
	closers []func()
	// keys are the stacks' Crypters whose keys are derived in the
	// background; the command fails if one of them was given a wrong
	// passphrase (see checkKeys).
	keys []backgroundKey
}

// globals are the flags every command takes.
type globals struct {
	dir     string
	stack   string
	backend string
	colour  string
	verbose bool
	// lockTimeout is how long a command waits for a stack's lock that
	// another holds (--lock-timeout); 0 fails at once.
	lockTimeout time.Duration
}

// Main runs the plinth command line with args (without the program name)
// and returns the process exit code.
func Main(ctx context.Context, args []string, env Env) int {
	out := newOutBuffer(env.Stdout, outFlushEvery)
	defer out.Close()
	env.Stdout = out
	if env.Stderr != nil {
		env.Stderr = stderrAfter{out: out, w: env.Stderr}
	}
	if env.Stdin != nil {
		env.Stdin = flushBeforeRead{out: out, r: env.Stdin}
	}
	if read := env.ReadPassword; read != nil {
		env.ReadPassword = func() (string, error) {
			out.Flush()
			return read()
		}
	}
	a := &app{env: env, scrub: display.NewScrubber()}
	a.env.Stderr = a.scrub.Writer(env.Stderr)
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(a.env.Stderr)
	err := a.checkKeys(root.ExecuteContext(ctx))
	for _, c := range a.closers {
		c()
	}
	return a.exitCode(err)
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "plinth",
		Short: "Plinth makes real infrastructure match a program",
		Long: "Plinth reads a program, compares it with the state it recorded for the stack, and\n" +
			"drives Terraform and Pulumi providers to create, update, replace and delete resources\n" +
			"until the two agree. The program in the project directory (-C) is one of:\n" +
			"  plinth.yaml     plinth's own YAML program\n" +
			"  Pulumi.yaml     a Pulumi program, started by the language runtime it names (the\n" +
			"                  runtimes docs/cli.md lists); missing plugins are installed on up\n" +
			"  *.tf            a Terraform configuration; run plinth init first to install its\n" +
			"                  modules and providers from their registries\n" +
			"plinth.yaml wins over Pulumi.yaml, and Pulumi.yaml over .tf files.",
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	f := root.PersistentFlags()
	f.StringVarP(&a.g.dir, "cwd", "C", "", "run in this project `directory` instead of the current one")
	f.StringVarP(&a.g.stack, "stack", "s", "", "the stack to use (default: the selected stack, else dev)")
	f.StringVar(&a.g.backend, "backend", "", "the state backend: a postgres:// URL, or file:DIRECTORY (default: $PLINTH_BACKEND, else backend: in plinth.yaml, else .plinth)")
	f.StringVar(&a.g.colour, "color", "auto", "colour the output: auto, always or never")
	f.BoolVarP(&a.g.verbose, "verbose", "v", false, "show unchanged resources, default providers and stack traces")
	f.DurationVar(&a.g.lockTimeout, "lock-timeout", 0, "wait up to `DURATION` (30s, 5m) for the stack's lock if another command holds it (default: fail at once)")
	root.AddCommand(
		a.previewCommand(), a.upCommand(), a.refreshCommand(), a.destroyCommand(), a.importCommand(),
		a.stackCommand(), a.stateCommand(), a.configCommand(), a.pluginCommand(), a.versionCommand(), a.testCommand(),
		a.secretsCommand(),
	)
	root.AddCommand(a.initCommand())
	root.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		switch a.g.colour {
		case "auto", "always", "never":
			return errors.Join(a.checkLockTimeout(), a.resolvePathFlags(c))
		}
		return display.Errorf("Invalid command line", "--color %q is not auto, always or never.", a.g.colour)
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if hint := singleDashHint(c, err); hint != nil {
			return hint
		}
		return usageError(err)
	})
	refuseUnknownSubcommands(root)
	return root
}

// exitStatus ends a command with a code but no message of its own (a
// preview that found changes).
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// reported wraps an error whose diagnostics a view already showed.
type reported struct{ err error }

func (r reported) Error() string { return r.err.Error() }
func (r reported) Unwrap() error { return r.err }

func (a *app) exitCode(err error) int {
	var st exitStatus
	var rp reported
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &st):
		return int(st)
	case errors.As(err, &rp):
		return ExitError
	}
	if isUsageError(err) {
		err = usageError(err)
	}
	display.PrintError(a.env.Stderr, err, a.colourFor(false), a.g.verbose)
	return ExitError
}

// usageError explains a command line cobra could not parse.
func usageError(err error) error {
	var de *display.Error
	if errors.As(err, &de) {
		return err
	}
	return &display.Error{Summary: "Invalid command line", Detail: err.Error() + ". Run `plinth help` or add --help to a command to see what it takes."}
}

func isUsageError(err error) bool {
	msg := err.Error()
	for _, s := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires ", "invalid argument"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// colourFor decides whether output to a stream is coloured.
func (a *app) colourFor(terminal bool) bool {
	switch a.g.colour {
	case "always":
		return true
	case "never":
		return false
	}
	return terminal && a.env.getenv("NO_COLOR") == "" && a.env.getenv("TERM") != "dumb"
}
