package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/plugin/proc"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

type pendingFlags struct {
	clear, importURN string
	yes, json        bool
}

func (a *app) statePendingCommand() *cobra.Command {
	var f pendingFlags
	c := &cobra.Command{
		Use:   "pending [--clear URN | --import URN ID]",
		Short: "List the operations an interrupted run left pending, and resolve them",
		Long: "A step that began but never reported its end (plinth was killed mid-call) leaves a\n" +
			"pending operation: plinth cannot know whether it happened. Check the real resource,\n" +
			"then resolve it: --clear URN if the step did nothing, or --import URN ID if it made a\n" +
			"resource with that ID (plinth then refreshes it to read its properties).",
		Example: "  plinth state pending\n  plinth state pending --clear urn:pulumi:dev::app::plinth:fs:File::note\n  plinth state pending --import urn:pulumi:dev::app::plinth:fs:File::note /abs/path/note.txt",
		Args: func(c *cobra.Command, args []string) error {
			if f.importURN != "" {
				return cobra.ExactArgs(1)(c, args)
			}
			return cobra.NoArgs(c, args)
		},
		RunE: func(c *cobra.Command, args []string) error {
			switch {
			case f.clear != "" && f.importURN != "":
				return display.Errorf("Invalid command line", "Give --clear or --import, not both.")
			case f.clear != "":
				return a.clearPending(c.Context(), f, f.clear)
			case f.importURN != "":
				return a.resolvePending(c.Context(), f, f.importURN, args[0])
			}
			return a.listPending(c.Context())
		},
	}
	c.Flags().StringVar(&f.clear, "clear", "", "drop the pending operation on `URN`: it changed nothing")
	c.Flags().StringVar(&f.importURN, "import", "", "record that the pending create of `URN` made the resource with the ID given as argument")
	c.Flags().BoolVarP(&f.yes, "yes", "y", false, "do not ask for confirmation")
	c.Flags().BoolVar(&f.json, "json", false, "write the refresh after --import as JSON events")
	return c
}

func (a *app) listPending(ctx context.Context) error {
	ws, _, snap, err := a.stateContext(ctx, false)
	if err != nil {
		return err
	}
	if len(snap.Pending) == 0 {
		fmt.Fprintf(a.env.Stdout, "Stack %s has no pending operations.\n", ws.stack)
		return nil
	}
	fmt.Fprintf(a.env.Stdout, "Stack %s has %d pending operation(s):\n", ws.stack, len(snap.Pending))
	for _, p := range snap.Pending {
		fmt.Fprintf(a.env.Stdout, "  %s %s (started %s)\n    %s\n", p.Op, p.Resource.URN, timeText(p.Started), p.Describe())
	}
	fmt.Fprint(a.env.Stdout, childrenNote(proc.TiesChildren))
	return nil
}

// childrenNote is what `plinth state pending` adds on a system where a
// command plinth ran may outlive it (tied is false): the advice to clear
// a create that was not made holds only once its commands have ended.
func childrenNote(tied bool) string {
	if tied {
		return ""
	}
	return "Note: on this system a command plinth started (a plinth:exec:Command, a local-exec provisioner)\n" +
		"may still be running after plinth was killed, and make its change later. Before you clear a\n" +
		"pending create, check that none of its commands still runs (ps), then look at the real resource.\n"
}

// clearPending drops the pending operation on one URN. It needs neither
// the program nor a provider, so it works while the program is broken.
func (a *app) clearPending(ctx context.Context, f pendingFlags, urn string) error {
	return a.runStateEdit(ctx, "state pending", f.yes, func(ctx context.Context, ws *workspace, s *state.Session) error {
		if err := a.confirmEdit(ctx, f.yes, fmt.Sprintf("Drop the pending operation on %s?", urn)); err != nil {
			return err
		}
		if err := s.ResolvePending(ctx, resource.URN(urn), ""); err != nil {
			return display.Errorf("Cannot resolve", "%v.", err)
		}
		fmt.Fprintf(a.env.Stdout, "Dropped the pending operation on %s.\n", urn)
		return nil
	})
}

// resolvePending records that the pending create on one URN made the
// resource with id, then refreshes it so its properties are recorded.
func (a *app) resolvePending(ctx context.Context, f pendingFlags, urn, id string) error {
	if err := a.needConfirmation("state pending", opFlags{yes: f.yes, json: f.json}); err != nil {
		return err
	}
	view := a.newView(f.json, false)
	r, err := a.prepare(ctx, view)
	if err != nil {
		return err
	}
	defer r.close()
	sess, err := r.openSession(ctx, "plinth state pending")
	if err != nil {
		return err
	}
	defer closeSession(sess)
	if err := a.confirmEdit(ctx, f.yes, fmt.Sprintf("Record %s as created with ID %s?", urn, id)); err != nil {
		return err
	}
	if err := sess.ResolvePending(ctx, resource.URN(urn), id); err != nil {
		return display.Errorf("Cannot resolve", "%v.", err)
	}
	return r.refreshImported(ctx, sess, resource.URN(urn))
}

// refreshImported reads the resource just recorded from its provider.
func (r *stackRun) refreshImported(ctx context.Context, sess *state.Session, urn resource.URN) error {
	ctx, hard, stop := r.a.interruptible(ctx, r.view)
	defer stop()
	opts, err := r.options(sess, hard, opFlags{targets: []string{string(urn)}})
	if err != nil {
		return err
	}
	_, err = r.phase(display.Operation{Verb: "refresh"}, false, func() (*engine.Result, error) {
		return engine.Refresh(ctx, sess.Snapshot(), opts)
	})
	if err != nil {
		return err
	}
	return closeSession(sess)
}
