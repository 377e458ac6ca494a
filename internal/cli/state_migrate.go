package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/state"
)

func (a *app) stateMigrateCommand() *cobra.Command {
	var to string
	c := &cobra.Command{
		Use:   "migrate --to BACKEND",
		Short: "Copy the stack to another state backend (e.g. from .plinth to PostgreSQL)",
		Long: "Migrate copies the stack (its snapshot, journal, secrets configuration and history) to\n" +
			"another backend: a postgres:// URL, or file:DIRECTORY. It holds the stack's lock in both,\n" +
			"refuses if the target already holds the stack (or another command creates it there\n" +
			"meanwhile), and reads the copy back and compares it before it reports success. A migrate\n" +
			"that was stopped part way leaves a part of the copy: run it again to finish it. The\n" +
			"source is left as it was: once the copy is in use (set PLINTH_BACKEND or backend: in\n" +
			"plinth.yaml), remove the old one yourself.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			if to == "" {
				return display.Errorf("Invalid command line", "state migrate needs --to BACKEND: a postgres:// URL or file:DIRECTORY.")
			}
			target, err := a.openBackend(c.Context(), to, "--to", ws.dir)
			if err != nil {
				return err
			}
			rep, err := state.Migrate(c.Context(), ws.backend, target, ws.stack, state.MigrateOptions{BeforeWrite: a.env.BeforeMigrateWrite})
			if err != nil {
				return display.Errorf("Migration failed", "Copying stack %s from %s to %s failed: %v. The source is unchanged.",
					ws.stack, describeBackend(ws.backend), describeBackend(target), err)
			}
			if rep.Resumed {
				fmt.Fprintf(a.env.Stdout, "The target (%s) held a part of the copy, left by a migrate that was stopped; this one finished it.\n", describeBackend(target))
			}
			fmt.Fprintf(a.env.Stdout, "Copied stack %s to %s: a %d-byte snapshot, %d journal records, %d history records%s. The copy was read back and matches.\n"+
				"The source (%s) is unchanged. Point plinth at the copy with --backend, %s or backend: in plinth.yaml.\n",
				ws.stack, describeBackend(target), rep.SnapshotBytes, rep.JournalRecords, rep.HistoryRecords, secretsNote(rep.Secrets),
				describeBackend(ws.backend), BackendEnv)
			return nil
		},
	}
	c.Flags().StringVar(&to, "to", "", "the backend to copy the stack to: a postgres:// URL or file:DIRECTORY")
	return c
}

func secretsNote(copied bool) string {
	if copied {
		return " and its secrets configuration"
	}
	return ""
}
