package cli

import (
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/secrets/agent"
	"github.com/plinth-iac/plinth/internal/state"
)

// Env is the world a command runs in. System returns the process's own;
// tests build one around buffers.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// StdinTerminal and StdoutTerminal say whether the streams are
	// terminals: a confirmation is asked only on one, and the live view
	// draws only on one.
	StdinTerminal, StdoutTerminal bool
	// Width is the terminal's width in columns, 0 if unknown.
	Width int
	// Getenv reads an environment variable; os.Getenv if nil.
	Getenv func(string) string
	// Now is the clock; time.Now if nil.
	Now func() time.Time
	// Interrupts returns a channel of Ctrl-C presses and a function that
	// stops delivering them; nil means no interrupts arrive.
	Interrupts func() (<-chan os.Signal, func())
	// KDF is the cost of deriving a key from a new stack's passphrase;
	// zero means the secrets package's default. Tests make it cheap.
	KDF secrets.KDFParams
	// OnDerive, if set, is called as each derivation of a key from a
	// passphrase starts: tests count them and hold one back to show that
	// a command does not wait for it.
	OnDerive func()
	// BeforeConfigWrite, if set, is called with a stack config file's
	// path just before the file is written, while its lock is held:
	// tests widen the read-modify-write this way to show that another
	// command's write waits for it rather than overwriting it.
	BeforeConfigWrite func(path string)
	// BeforeMigrateWrite, if set, is called by `state migrate` before it
	// writes each part of the copy to the target, while it holds both
	// locks (state.MigrateOptions.BeforeWrite): tests run another
	// command on the target in the window after its check.
	BeforeMigrateWrite func(part state.Part)
	// KeyAgent, if set, keeps the keys of passphrase stacks between
	// commands (see agent.FromEnv); nil means none, as in tests that run
	// the command line in process, whose derivations must stay theirs.
	KeyAgent *agent.Client
	// ReadPassword reads a line from the terminal without echoing it (the
	// passphrase prompt); nil reads a line from Stdin.
	ReadPassword func() (string, error)
	// Rewrite, if set, adjusts each engine event before it is shown.
	// Golden tests use it to make step durations deterministic.
	Rewrite func(*engine.Event)
}

// System returns the Env of this process. It also keeps a closed
// standard output from killing the process: `plinth up | head` must not
// die of SIGPIPE halfway through an update, leaving the stack locked and
// provider processes behind. With SIGPIPE caught, a write to the closed
// pipe fails with EPIPE, which the views ignore, and the operation
// finishes and saves its state. (It is caught, not ignored, so that the
// commands and plugins plinth starts get the default disposition back.)
func System() Env {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	width := 0
	if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil {
		width = w
	}
	stdinTerminal := term.IsTerminal(int(os.Stdin.Fd()))
	return Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		StdinTerminal:  stdinTerminal,
		KeyAgent:       agent.FromEnv(os.Getenv, stdinTerminal),
		StdoutTerminal: term.IsTerminal(int(os.Stdout.Fd())),
		Width:          width,
		Getenv:         os.Getenv,
		Now:            time.Now,
		ReadPassword: func() (string, error) {
			b, err := term.ReadPassword(int(os.Stdin.Fd()))
			return string(b), err
		},
		Interrupts: func() (<-chan os.Signal, func()) {
			ch := make(chan os.Signal, 2)
			signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
			return ch, func() { signal.Stop(ch) }
		},
	}
}

func (e Env) getenv(k string) string {
	if e.Getenv != nil {
		return e.Getenv(k)
	}
	return os.Getenv(k)
}

func (e Env) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}
