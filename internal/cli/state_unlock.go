package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/state"
)

func (a *app) stateUnlockCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "unlock",
		Short: "Break the stack's lock left by a plinth that died",
		Long: "Every command that changes a stack holds its lock. A plinth killed without a chance to\n" +
			"clean up leaves the lock behind, and later commands refuse to run, naming the holder.\n" +
			"Unlock breaks it. Make sure the holder is really gone first: two commands changing one\n" +
			"stack at once can lose track of resources.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			ctx := c.Context()
			lock, err := ws.backend.Lock(ctx, ws.stack, state.CurrentProcess("plinth state unlock"))
			var locked *state.LockedError
			switch {
			case err == nil:
				fmt.Fprintf(a.env.Stdout, "Stack %s was not locked.\n", ws.stack)
				return lock.Unlock(ctx)
			case !errors.As(err, &locked):
				return err
			}
			if err := ws.backend.ForceUnlock(ctx, ws.stack); err != nil {
				return err
			}
			fmt.Fprintf(a.env.Stdout, "Broke the lock of stack %s, held by %s.\n", ws.stack, locked.Holder)
			return nil
		},
	}
}
