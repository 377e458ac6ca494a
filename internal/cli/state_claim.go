package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
)

// claimer is a backend that holds stacks no project has claimed: the
// PostgreSQL backend, whose databases an older plinth keyed by stack
// name alone.
type claimer interface {
	Claim(ctx context.Context, stack string, force bool) error
}

func (a *app) stateClaimCommand() *cobra.Command {
	var force bool
	c := &cobra.Command{
		Use:   "claim [--force]",
		Short: "Make a stack an older plinth wrote to PostgreSQL this project's",
		Long: "A PostgreSQL database keeps each project's stacks apart. Stacks an older plinth wrote,\n" +
			"keyed by name alone, go to the project their resources' URNs name the first time a newer\n" +
			"plinth opens the database. A stack whose URNs name no project (it records no resources)\n" +
			"or several is refused to every project until claimed: claim gives the selected stack to\n" +
			"this project. --force claims a stack whose resources name other projects too.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			cl, ok := ws.backend.(claimer)
			if !ok {
				return display.Errorf("Nothing to claim", "Stack %s is kept in %s, which holds only this project's stacks. Only a PostgreSQL database an older plinth wrote holds stacks no project has claimed.",
					ws.stack, describeBackend(ws.backend))
			}
			if err := cl.Claim(c.Context(), ws.stack, force); err != nil {
				return display.Errorf("Cannot claim the stack", "%v.", err)
			}
			fmt.Fprintf(a.env.Stdout, "Stack %s in %s is now this project's.\n", ws.stack, describeBackend(ws.backend))
			return nil
		},
	}
	c.Flags().BoolVar(&force, "force", false, "claim a stack whose resources name other projects too")
	return c
}
