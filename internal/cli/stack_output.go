package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/sdk/resource"
)

type outputFlags struct {
	json        bool
	showSecrets bool
}

func (a *app) stackOutputCommand() *cobra.Command {
	var f outputFlags
	c := &cobra.Command{
		Use:   "output [NAME]",
		Short: "Show the stack's outputs, or one of them",
		Long: "Output shows the outputs the last update recorded. With NAME it prints that output\n" +
			"alone (a string as it is, anything else as JSON), for scripts. Secret outputs show\n" +
			"as [secret] unless --show-secrets.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			name := ""
			if len(args) == 1 {
				name = args[0]
			}
			return a.runStackOutput(c.Context(), f, name)
		},
	}
	c.Flags().BoolVar(&f.json, "json", false, "print JSON")
	c.Flags().BoolVar(&f.showSecrets, "show-secrets", false, "print secret values in plain text")
	return c
}

func (a *app) runStackOutput(ctx context.Context, f outputFlags, name string) error {
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	c, err := ws.crypterInBackground(ctx)
	if err != nil {
		return err
	}
	snap, err := ws.load(ctx, c)
	if err != nil {
		return err
	}
	outputs := snap.Outputs
	if f.showSecrets {
		outputs = reveal(outputs)
	}
	if name == "" {
		return a.printOutputs(outputs, f.json)
	}
	v, ok := outputs[name]
	if !ok {
		return display.Errorf("No such output", "Stack %s has no output %q; it has %s.", ws.stack, name, listOrNone(outputs.Keys()))
	}
	if !f.json && v.Kind() == resource.StringKind {
		fmt.Fprintln(a.env.Stdout, v.Str())
		return nil
	}
	if !f.json && v.IsSecret() {
		fmt.Fprintln(a.env.Stdout, "[secret]")
		return nil
	}
	return a.printJSON(display.JSONValue(v))
}

func (a *app) printOutputs(o resource.Object, asJSON bool) error {
	if asJSON {
		m := display.JSONObject(o)
		if m == nil {
			m = map[string]any{}
		}
		return a.printJSON(m)
	}
	if len(o) == 0 {
		fmt.Fprintln(a.env.Stdout, "The stack has no outputs.")
		return nil
	}
	keys := o.Keys()
	sort.Strings(keys)
	tw := tabwriter.NewWriter(a.env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "OUTPUT\tVALUE")
	for _, k := range keys {
		fmt.Fprintf(tw, "%s\t%s\n", k, display.Value(o[k]))
	}
	return tw.Flush()
}

func (a *app) printJSON(x any) error {
	enc := json.NewEncoder(a.env.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(x)
}

// reveal removes the secret marks from an object's values.
func reveal(o resource.Object) resource.Object {
	out := make(resource.Object, len(o))
	for k, v := range o {
		out[k] = revealValue(v)
	}
	return out
}

func revealValue(v resource.Value) resource.Value {
	return v.Map(func(x resource.Value) resource.Value {
		if x.IsSecret() {
			return x.SecretElement() // already revealed inside: Map works bottom-up
		}
		return x
	})
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
