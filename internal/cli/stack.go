package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/state"
)

func (a *app) stackCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "stack",
		Short: "List, create, select and remove stacks",
		Long: "A stack is one instance of the program (dev, prod, ...) with its own config\n" +
			"(plinth.<stack>.yaml beside the program), state and secrets key (under .plinth/).\n" +
			"Commands use --stack, else the selected stack, else dev, which is created on first use.",
		Args: cobra.NoArgs,
	}
	c.AddCommand(a.stackLsCommand(), a.stackInitCommand(), a.stackSelectCommand(), a.stackRmCommand(), a.stackOutputCommand(),
		a.stackChangeSecretsProviderCommand(), a.stackHistoryCommand())
	return c
}

func (a *app) stackLsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "ls",
		Short: "List the project's stacks",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			return ws.listStacks(c.Context())
		},
	}
}

func (w *workspace) listStacks(ctx context.Context) error {
	names, err := w.backend.ListStacks(ctx)
	if err != nil {
		return err
	}
	out := w.a.env.Stdout
	if len(names) == 0 {
		fmt.Fprintf(out, "No stacks yet; the first command that needs one creates stack %s.\n", w.stack)
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tRESOURCES\tLAST UPDATE")
	for _, n := range names {
		mark := ""
		if n == w.stack {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s%s\t%s\t%s\n", n, mark, w.resourceCount(ctx, n), w.lastUpdate(ctx, n))
	}
	return tw.Flush()
}

// resourceCount reads a stack's resource count without its key, so that
// a stack protected by another passphrase still lists.
func (w *workspace) resourceCount(ctx context.Context, stack string) string {
	snap, err := state.Load(ctx, w.backend, stack, state.OpenOptions{Crypter: blindCrypter{}})
	if err != nil {
		return "?"
	}
	return fmt.Sprint(countResources(snap))
}

// countResources counts the user's resources: not the engine's default
// providers, nor resources awaiting deletion.
func countResources(snap *state.Snapshot) int {
	n := 0
	for _, r := range snap.Resources {
		if !r.Delete && !isDefaultProvider(r) {
			n++
		}
	}
	return n
}

// lastUpdate says when the stack's state last changed: the end of its
// last recorded operation, else (a stack older than its history) the
// snapshot file's time.
func (w *workspace) lastUpdate(ctx context.Context, stack string) string {
	if ops, err := state.History(ctx, w.backend, stack); err == nil && len(ops) > 0 {
		last := ops[len(ops)-1]
		if last.Ended != nil {
			return last.Ended.Local().Format("2006-01-02 15:04:05")
		}
		return last.Started.Local().Format("2006-01-02 15:04:05")
	}
	info, err := os.Stat(w.backend.Describe(stack, state.PartSnapshot))
	if err != nil {
		return "never"
	}
	return info.ModTime().Local().Format("2006-01-02 15:04:05")
}

// blindCrypter reads state without opening secrets: every secret reads
// as an empty string. Only for counting.
type blindCrypter struct{}

func (blindCrypter) Seal([]byte) (string, error) {
	return "", errors.New("cannot seal without the key")
}
func (blindCrypter) Open(string) ([]byte, error) { return []byte(`""`), nil }

func (a *app) stackInitCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "init NAME",
		Short: "Create a stack and select it",
		Long: "Init creates the stack's secrets key (from PLINTH_PASSPHRASE if it is set, else a\n" +
			"generated one stored under .plinth/) and selects the stack.",
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			a.g.stack = args[0]
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			if ok, err := ws.stackExists(c.Context(), ws.stack); err != nil || ok {
				return errors.Join(err, display.Errorf("Stack exists", "Stack %s already exists. Select it with `plinth stack select %s`.", ws.stack, ws.stack))
			}
			cf, err := ws.configFile()
			if err != nil {
				return err
			}
			if _, err := ws.crypterFor(c.Context(), cf, false); err != nil {
				return err
			}
			if cf.Salt() != "" {
				// A passphrase stack: commit the salt with its config.
				if err := ws.saveSalt(c.Context(), cf); err != nil {
					return err
				}
			}
			if err := ws.selectStack(ws.stack); err != nil {
				return err
			}
			fmt.Fprintf(a.env.Stdout, "Created stack %s and selected it.\n", ws.stack)
			return nil
		},
	}
}

func (a *app) stackSelectCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "select NAME",
		Short: "Select the stack that commands use by default",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			a.g.stack = args[0]
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			ok, err := ws.stackExists(c.Context(), ws.stack)
			if err != nil {
				return err
			}
			if !ok && ws.stack != defaultStack {
				return display.Errorf("No such stack", "Stack %s does not exist. Create it with `plinth stack init %s`, or list the stacks with `plinth stack ls`.", ws.stack, ws.stack)
			}
			if err := ws.selectStack(ws.stack); err != nil {
				return err
			}
			fmt.Fprintf(a.env.Stdout, "Selected stack %s.\n", ws.stack)
			return nil
		},
	}
}

func (a *app) stackRmCommand() *cobra.Command {
	var force, preserve bool
	c := &cobra.Command{
		Use:   "rm NAME",
		Short: "Remove a stack: its state, secrets key and config file",
		Long: "Rm removes a stack's state, lock and secrets key, and its config file unless\n" +
			"--preserve-config. It refuses while the stack records resources: run\n" +
			"`plinth destroy` first, or pass --force to forget them (they are not deleted).",
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			a.g.stack = args[0]
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			return ws.removeStack(c.Context(), force, preserve)
		},
	}
	c.Flags().BoolVarP(&force, "force", "f", false, "remove the stack even though it records resources (they are not deleted)")
	c.Flags().BoolVar(&preserve, "preserve-config", false, "keep plinth.<stack>.yaml")
	return c
}

func (w *workspace) removeStack(ctx context.Context, force, preserve bool) error {
	ok, err := w.stackExists(ctx, w.stack)
	if err != nil {
		return err
	}
	if !ok {
		return display.Errorf("No such stack", "Stack %s does not exist; `plinth stack ls` lists the stacks.", w.stack)
	}
	snap, err := state.Load(ctx, w.backend, w.stack, state.OpenOptions{Crypter: blindCrypter{}})
	if err != nil && !force {
		return err
	}
	if n := 0; err == nil && !force {
		if n = countResources(snap); n > 0 {
			return display.Errorf("Stack has resources", "Stack %s records %d resource(s). Run `plinth destroy --stack %s` first, or pass --force to forget them without deleting them.", w.stack, n, w.stack)
		}
	}
	if err := w.backend.RemoveStack(ctx, w.stack); err != nil {
		return err
	}
	if !preserve {
		cf, _ := w.configFile()
		if cf != nil {
			if err := os.Remove(cf.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	if w.selected() == w.stack {
		if err := w.selectStack(""); err != nil {
			return err
		}
	}
	fmt.Fprintf(w.a.env.Stdout, "Removed stack %s.\n", w.stack)
	return nil
}
