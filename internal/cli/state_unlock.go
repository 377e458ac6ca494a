package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
)

func (a *app) stateUnlockCommand() *cobra.Command {
	var force bool
	c := &cobra.Command{
		Use:   "unlock",
		Short: "Break the stack's lock left by a plinth that died",
		Long: "Every command that changes a stack holds its lock. A plinth killed without a chance to\n" +
			"clean up leaves the lock behind, and later commands refuse to run, naming the holder.\n" +
			"Unlock breaks it when the holder ran on this host and is gone (its PID is free, or now\n" +
			"belongs to a process started at another time). It refuses while the holder is still\n" +
			"running on this host: stop that command first (Ctrl-C, or kill PID). A holder on another\n" +
			"host, or one plinth cannot check, needs --force: make sure it is really gone first, since\n" +
			"two commands changing one stack at once can lose track of resources.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.runUnlock(c.Context(), force)
		},
	}
	c.Flags().BoolVar(&force, "force", false, "break a lock whose holder plinth cannot check (another host, or an old lock)")
	return c
}

func (a *app) runUnlock(ctx context.Context, force bool) error {
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	lock, err := ws.backend.Lock(ctx, ws.stack, state.CurrentProcess("plinth state unlock"))
	var locked *state.LockedError
	switch {
	case err == nil:
		fmt.Fprintf(a.env.Stdout, "Stack %s was not locked.\n", ws.stack)
		return lock.Unlock(ctx)
	case !errors.As(err, &locked):
		return err
	}
	if err := a.mayBreak(locked, force); err != nil {
		return err
	}
	if err := ws.backend.ForceUnlock(ctx, ws.stack); err != nil {
		return err
	}
	fmt.Fprintf(a.env.Stdout, "Broke the lock of stack %s, held by %s.\n", ws.stack, locked.Holder)
	return nil
}

// mayBreak decides whether a lock may be broken: always when its holder
// is known dead, never while it is known alive, and otherwise only with
// --force (and a warning).
func (a *app) mayBreak(l *state.LockedError, force bool) error {
	switch {
	case l.Stale:
		return nil
	case l.Alive:
		return display.Errorf("Lock holder is running",
			"Stack %s is locked by %s, which is still running on this host. Breaking its lock would let two commands change the stack at once, "+
				"and the next command would empty the journal it is still writing. Wait for it to finish, or stop it (Ctrl-C in its terminal, or `kill %d`), then run plinth again.",
			l.Stack, l.Holder, l.Holder.PID)
	case !force:
		return display.Errorf("Cannot check the lock holder",
			"Stack %s is locked by %s, and plinth cannot tell from this host whether it is still running%s. "+
				"Make sure it has stopped, then run `plinth state unlock --force --stack %s`.",
			l.Stack, l.Holder, whyUnchecked(l.Holder), l.Stack)
	}
	d := display.Diagnostic{Severity: engine.SeverityWarning, Summary: "Breaking a lock",
		Detail: fmt.Sprintf("plinth cannot check whether %s is still running%s; if it is, it and the next command may both change stack %s and lose track of resources.", l.Holder, whyUnchecked(l.Holder), l.Stack)}
	fmt.Fprintln(a.env.Stderr, d.Format(a.colourFor(false)))
	return nil
}

func whyUnchecked(h state.LockHolder) string {
	switch state.HolderLiveness(h) {
	case state.LivenessPIDAlive:
		return fmt.Sprintf(" (a process %d runs here, but the lock does not record its start time, so it may be another process that was given the same PID)", h.PID)
	case state.LivenessUnknown:
		if h.Host != "" {
			return fmt.Sprintf(" (it ran on host %s)", h.Host)
		}
	}
	return ""
}
