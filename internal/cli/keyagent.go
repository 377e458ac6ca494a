package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/secrets/agent"
)

// secretsCommand groups what concerns the keys of passphrase stacks
// beyond one stack: the key agent that keeps them between commands.
func (a *app) secretsCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "secrets",
		Short: "Manage the keys plinth keeps between commands",
		Long: "A passphrase stack's key is derived from PLINTH_PASSPHRASE with argon2id, which costs\n" +
			"about a third of a second of CPU. At a terminal, plinth hands the key to a key agent,\n" +
			"a process of yours that keeps it in memory (never on disk) for 15 minutes after its\n" +
			"last use (PLINTH_KEY_AGENT_TTL), and gives it only to a command that presents the same\n" +
			"passphrase. PLINTH_KEY_AGENT=off turns it off, =on uses it without a terminal too.",
		Args: cobra.NoArgs,
	}
	c.AddCommand(a.secretsForgetCommand())
	return c
}

func (a *app) secretsForgetCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "forget",
		Short: "Make the key agent forget every key now (it then exits)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if a.env.KeyAgent == nil {
				fmt.Fprintln(a.env.Stdout, "No key agent is running.")
				return nil
			}
			f, err := a.env.KeyAgent.Forget()
			switch {
			case errors.Is(err, agent.ErrNotRunning):
				fmt.Fprintln(a.env.Stdout, "No key agent is running.")
				return nil
			case err != nil:
				return display.Errorf("Key agent failed", "Asking the key agent to forget its keys failed: %v. "+
					"End the process yourself (pgrep -f %s), or wait: it forgets each key %s after its last use.", err, agent.Command, a.env.KeyAgent.TTL)
			}
			keys := "keys"
			if f.Keys == 1 {
				keys = "key"
			}
			fmt.Fprintf(a.env.Stdout, "The key agent (pid %d) forgot %d %s and exits.\n", f.PID, f.Keys, keys)
			return nil
		},
	}
}
