package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/state"
)

func (a *app) stackHistoryCommand() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "history",
		Short: "Show the operations run on the stack, newest first",
		Long: "History lists every update, refresh, destroy and import run on the stack: who ran it\n" +
			"(user, host), when, how it ended, how many resources each kind of step touched, and the\n" +
			"plinth version. An operation shown as running either runs now or was killed; the next\n" +
			"operation recovers what it recorded.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			ops, err := state.History(c.Context(), ws.backend, ws.stack)
			if err != nil {
				return err
			}
			slices.Reverse(ops)
			if asJSON {
				enc := json.NewEncoder(a.env.Stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(ops)
			}
			return a.printHistory(ws.stack, ops)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "write the history as a JSON array, newest first")
	return c
}

func (a *app) printHistory(stack string, ops []*state.Operation) error {
	if len(ops) == 0 {
		fmt.Fprintf(a.env.Stdout, "Stack %s has no history yet.\n", stack)
		return nil
	}
	tw := tabwriter.NewWriter(a.env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tRESULT\tSTARTED\tDURATION\tBY\tRESOURCES\tVERSION")
	for _, op := range ops {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", op.Kind, op.Result, op.Started.Local().Format("2006-01-02 15:04:05"),
			opDuration(op), op.User+"@"+op.Host, stepSummary(op.Steps), op.Version)
	}
	return tw.Flush()
}

func opDuration(op *state.Operation) string {
	if op.Ended == nil {
		return "-"
	}
	d := op.Ended.Sub(op.Started)
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(100 * time.Millisecond).String()
}

// stepOrder is the order step kinds are listed in.
var stepOrder = []string{"create", "update", "replace", "delete", "import", "refresh", "discard", "same"}

// stepSummary lists the resources per step kind: "2 create, 1 delete,
// 5 same"; create-replacement and delete-replaced are part of replace.
func stepSummary(steps map[string]int) string {
	var parts []string
	for _, k := range stepOrder {
		if n := steps[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}
