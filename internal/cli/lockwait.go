package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/state"
)

// lockWait is how a command waits for the stack's lock: up to
// --lock-timeout, saying once on standard error whom it waits for.
func (w *workspace) lockWait() state.LockWait {
	timeout := w.a.g.lockTimeout
	return state.LockWait{Timeout: timeout, Waiting: func(l *state.LockedError) {
		fmt.Fprintf(w.a.env.Stderr, "Waiting for the lock on stack %s, held by %s, for up to %s (--lock-timeout)...\n",
			l.Stack, holderBrief(l.Holder), timeout)
	}}
}

// holderBrief names a lock holder on one line:
// alice@build-7 (pid 123, plinth up) since 2026-01-02 03:04:05.
func holderBrief(h state.LockHolder) string {
	if h.PID == 0 && h.Host == "" {
		return "an unknown process"
	}
	who := h.Host
	if h.User != "" {
		who = h.User + "@" + h.Host
	}
	what := []string{fmt.Sprintf("pid %d", h.PID)}
	if h.Command != "" {
		what = append(what, h.Command)
	}
	return fmt.Sprintf("%s (%s) since %s", who, strings.Join(what, ", "), h.Started.Local().Format(time.DateTime))
}

// checkLockTimeout refuses a negative --lock-timeout.
func (a *app) checkLockTimeout() error {
	if a.g.lockTimeout < 0 {
		return display.Errorf("Invalid command line", "--lock-timeout %s is negative: give how long to wait for the stack's lock, such as 30s or 5m (0, the default, does not wait).", a.g.lockTimeout)
	}
	return nil
}

// singleDashHint explains a long flag written with one dash, as
// terraform spells them (-lock-timeout=5m): pflag reads it as a run of
// one-letter flags. It returns nil when err is not that.
func singleDashHint(c *cobra.Command, err error) error {
	msg := err.Error()
	i := strings.Index(msg, " in -")
	if !strings.Contains(msg, "shorthand") || i < 0 {
		return nil
	}
	arg := msg[i+len(" in "):]
	name, _, _ := strings.Cut(strings.TrimPrefix(arg, "-"), "=")
	if len(name) < 2 || c.Flags().Lookup(name) == nil {
		return nil
	}
	return display.Errorf("Invalid command line", "%s is written with one dash, as terraform spells its flags; plinth's long flags take two: -%s. Run `plinth help` or add --help to a command to see what it takes.", arg, arg)
}
