package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func (a *app) stateRestoreBackupCommand() *cobra.Command {
	var force bool
	c := &cobra.Command{
		Use:   "restore-backup",
		Short: "Make the previous snapshot (snapshot.json.bak) the stack's state",
		Long: "Each time plinth saves a stack's state it keeps the snapshot it replaces as\n" +
			".plinth/stacks/<stack>/snapshot.json.bak. When snapshot.json is missing or damaged,\n" +
			"restore-backup makes that backup current again, under the stack's lock and in one\n" +
			"atomic write, and says how many resources it records and when it was written.\n" +
			"Changes made after the backup was written are not in it: run `plinth refresh`, then\n" +
			"`plinth preview`, to see how the world differs. It refuses while the current state\n" +
			"reads cleanly as every command reads it (snapshot, journal and integrity check),\n" +
			"and refuses a backup older than the stack's update history records\n" +
			"(the history outlives a rollback of the state), unless --force; with --force it\n" +
			"lists what restoring forgets, by URN and ID, so that it can be imported again.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.runRestoreBackup(c.Context(), force)
		},
	}
	c.Flags().BoolVar(&force, "force", false, "restore the backup even though the current state reads cleanly (forgetting what changed since)")
	return c
}

func (a *app) runRestoreBackup(ctx context.Context, force bool) error {
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	c, err := ws.crypter(ctx)
	if err != nil {
		return err
	}
	r, err := state.RestoreBackup(ctx, ws.backend, ws.stack, state.RestoreOptions{Crypter: c, Force: force,
		History: state.NewOperation("restore-backup", Version)})
	if err != nil {
		return display.Errorf("Cannot restore the backup", "%v.", err)
	}
	if len(r.Forgotten) > 0 {
		d := display.Diagnostic{Severity: engine.SeverityWarning, Summary: "Older than the history",
			Detail: fmt.Sprintf("The backup is older than the stack's history records; restoring it forgot:\n  %s\n"+
				"Bring back what still exists with `plinth import`.", strings.Join(r.Forgotten, "\n  "))}
		fmt.Fprintln(a.env.Stderr, d.Format(a.colourFor(false)))
	}
	fmt.Fprintf(a.env.Stdout, "Restored stack %s from %s, written %s: %d resources recorded.\n",
		ws.stack, r.From, r.Written.Local().Format(time.RFC3339), countResources(r.Snapshot))
	if r.Replayed > 0 {
		fmt.Fprintf(a.env.Stdout, "Replayed %d journal entries recorded after it.\n", r.Replayed)
	}
	fmt.Fprintln(a.env.Stdout, "Run `plinth refresh` to bring it up to date with the world, then `plinth preview`.")
	return nil
}

func (a *app) stateAcceptRollbackCommand() *cobra.Command {
	var yes bool
	c := &cobra.Command{
		Use:   "accept-rollback",
		Short: "Accept a state older than the stack's history as current",
		Long: "Every load compares the state's serial and sequence with the newest ones the stack's\n" +
			"update history recorded, and refuses a state that is older: an older snapshot copied\n" +
			"back, a journal cut short, the state files deleted. When the newest state cannot be\n" +
			"put back, accept-rollback takes the state as it is as current from now on, and records\n" +
			"that in the history. It lists what the history recorded that the state lacks: bring\n" +
			"back what still exists with `plinth import`.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.runAcceptRollback(c.Context(), yes)
		},
	}
	c.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask for confirmation")
	return c
}

func (a *app) runAcceptRollback(ctx context.Context, yes bool) error {
	if err := a.needConfirmation("state accept-rollback", opFlags{yes: yes}); err != nil {
		return err
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	c, err := ws.crypter(ctx)
	if err != nil {
		return err
	}
	if _, err := ws.loadState(ctx, c, false); !errors.Is(err, state.ErrRolledBack) {
		if err == nil {
			return display.Errorf("Nothing to accept", "The state of stack %s is not older than its history records; nothing was changed.", ws.stack)
		}
		return err
	}
	if err := a.confirmEdit(ctx, yes, fmt.Sprintf("Accept the state of stack %s as current, forgetting what the history recorded since?", ws.stack)); err != nil {
		return err
	}
	r, err := state.AcceptRollback(ctx, ws.backend, ws.stack, state.AcceptOptions{Crypter: c, History: state.NewOperation("accept-rollback", Version)})
	if err != nil {
		return display.Errorf("Cannot accept the rollback", "%v.", err)
	}
	fmt.Fprintf(a.env.Stdout, "Stack %s accepted at %s (it was at %s; the history recorded %s): %d resources recorded.\n",
		ws.stack, r.To, r.From, r.Recorded, countResources(r.Snapshot))
	if len(r.Lost) > 0 {
		fmt.Fprintf(a.env.Stdout, "Forgotten, recorded by the history since:\n  %s\n", strings.Join(r.Lost, "\n  "))
	}
	fmt.Fprintln(a.env.Stdout, "Bring back what still exists with `plinth import`, then run `plinth refresh` and `plinth preview`.")
	return nil
}

func (a *app) stateUnprotectCommand() *cobra.Command {
	var yes bool
	c := &cobra.Command{
		Use:   "unprotect URN...",
		Short: "Clear the protect option recorded for resources",
		Long: "A protected resource cannot be deleted. When the program no longer declares it (so\n" +
			"its protect option cannot be turned off there), unprotect clears the option in the\n" +
			"state, so that the next `plinth up` or `plinth destroy` may delete it. URN may also be\n" +
			"a resource name that only one resource has.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.runStateEdit(c.Context(), "state unprotect", yes, func(ctx context.Context, ws *workspace, s *state.Session) error {
				return a.unprotect(ctx, ws, s, args, yes)
			})
		},
	}
	c.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask for confirmation")
	return c
}

func (a *app) unprotect(ctx context.Context, ws *workspace, s *state.Session, args []string, yes bool) error {
	var urns []resource.URN
	for _, arg := range args {
		r, err := findResource(ws.stack, s.Base(), arg)
		if err != nil {
			return err
		}
		if !r.Protect {
			fmt.Fprintf(a.env.Stdout, "%s is not protected.\n", r.URN)
			continue
		}
		urns = append(urns, r.URN)
	}
	if len(urns) == 0 {
		return nil
	}
	if err := a.confirmEdit(ctx, yes, fmt.Sprintf("Clear the protect option of %d resource(s)? The next up or destroy may delete them.", len(urns))); err != nil {
		return err
	}
	for _, u := range urns {
		if err := s.SetProtect(ctx, u, false); err != nil {
			return display.Errorf("Cannot unprotect resource", "%v.", err)
		}
		fmt.Fprintf(a.env.Stdout, "Cleared the protect option of %s.\n", u)
	}
	return nil
}
