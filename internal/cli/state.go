package cli

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func (a *app) stateCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "state",
		Short: "Inspect and repair the stack's recorded state",
		Long: "The state is what plinth recorded about the stack's resources, under .plinth/ in the\n" +
			"project. These commands read it, and repair it by hand when the world and the record\n" +
			"disagree; none of them calls a provider to change anything.",
		Args: cobra.NoArgs,
	}
	c.AddCommand(a.stateLsCommand(), a.stateShowCommand(), a.stateRmCommand(), a.stateExportCommand(),
		a.stateImportCommand(), a.statePendingCommand(), a.stateUnlockCommand(), a.stateRestoreBackupCommand(), a.stateAcceptRollbackCommand(),
		a.stateUnprotectCommand(), a.stateMigrateCommand(), a.stateAdoptCommand(), a.stateClaimCommand(),
		a.stateTaintCommand(true), a.stateTaintCommand(false), a.stateMvCommand())
	return c
}

// stateContext opens a stack's secrets and reads its state, unlocked.
func (a *app) stateContext(ctx context.Context, verify bool) (*workspace, *secrets.Crypter, *state.Snapshot, error) {
	ws, err := a.workspace()
	if err != nil {
		return nil, nil, nil, err
	}
	c, err := ws.crypter(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	snap, err := ws.loadState(ctx, c, verify)
	if err != nil {
		return nil, nil, nil, err
	}
	return ws, c, snap, nil
}

func (a *app) stateLsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "ls",
		Short: "List the resources the state records, with their URNs and IDs",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, _, snap, err := a.stateContext(c.Context(), false)
			if err != nil {
				return err
			}
			if len(snap.Resources) == 0 {
				fmt.Fprintf(a.env.Stdout, "Stack %s records no resources.\n", ws.stack)
				return nil
			}
			tw := tabwriter.NewWriter(a.env.Stdout, 0, 4, 2, ' ', 0)
			if isTerraform(ws.dir) {
				listAddresses(tw, snap)
			} else {
				fmt.Fprintln(tw, "URN\tID\tNOTES")
				for _, r := range snap.Resources {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", r.URN, idText(r), notes(r))
				}
			}
			return tw.Flush()
		},
	}
}

// listAddresses lists a Terraform configuration's resources by address,
// as terraform state list does, leaving out the default providers the
// engine made (terraform lists no providers; provider blocks show as
// provider.NAME).
func listAddresses(w io.Writer, snap *state.Snapshot) {
	fmt.Fprintln(w, "ADDRESS\tID\tNOTES")
	for _, r := range snap.Resources {
		if !isDefaultProvider(r) {
			fmt.Fprintf(w, "%s\t%s\t%s\n", r.URN.Name(), idText(r), notes(r))
		}
	}
}

func notes(r *state.Resource) string {
	var n []string
	if r.Protect {
		n = append(n, "protected")
	}
	if r.Delete {
		n = append(n, "awaiting deletion")
	}
	if r.Tainted {
		n = append(n, "tainted (the next up replaces it)")
	}
	if isDefaultProvider(r) {
		n = append(n, "default provider")
	}
	if len(r.InitErrors) > 0 {
		n = append(n, "failed to initialise")
	}
	if r.Missing {
		n = append(n, "missing (deleted outside plinth; the next up creates it)")
	}
	return strings.Join(n, ", ")
}

// idText shows a resource's ID, masked when it was derived from a secret.
func idText(r *state.Resource) string {
	if r.SecretID {
		return "[secret]"
	}
	return r.ID
}

// isDefaultProvider reports whether r is a provider the engine made for
// resources that name none.
func isDefaultProvider(r *state.Resource) bool {
	name := r.URN.Name()
	return state.IsProviderType(r.Type) && (name == "default" || strings.HasPrefix(name, "default_"))
}

// findResource finds a live resource by URN, or by name when only one
// resource has it.
func findResource(stack string, snap *state.Snapshot, arg string) (*state.Resource, error) {
	if r := snap.Find(resource.URN(arg)); r != nil {
		return r, nil
	}
	var found []*state.Resource
	for _, r := range snap.Resources {
		if !r.Delete && r.URN.Name() == arg {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, display.Errorf("No such resource", "Stack %s records no resource %s. `plinth state ls` lists the URNs it records.", stack, arg)
	}
	urns := make([]string, len(found))
	for i, r := range found {
		urns[i] = string(r.URN)
	}
	return nil, display.Errorf("Ambiguous resource name", "Several resources of stack %s are named %s; give the URN of one of them:\n  %s", stack, arg, strings.Join(urns, "\n  "))
}

func (a *app) stateShowCommand() *cobra.Command {
	var showSecrets, asJSON bool
	c := &cobra.Command{
		Use:   "show URN",
		Short: "Show everything the state records about one resource",
		Long:  "Show prints a resource's type, ID, options, dependencies, inputs and outputs. URN may\nalso be a resource name that only one resource has. Secrets show as [secret] unless\n--show-secrets.",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ws, _, snap, err := a.stateContext(c.Context(), false)
			if err != nil {
				return err
			}
			r, err := findResource(ws.stack, snap, args[0])
			if err != nil {
				return err
			}
			if showSecrets {
				r = r.Clone()
				r.Inputs, r.Outputs = reveal(r.Inputs), reveal(r.Outputs)
				r.SecretID = false
			}
			if asJSON {
				return a.printJSON(resourceJSON(r))
			}
			a.printResource(r)
			return nil
		},
	}
	c.Flags().BoolVar(&showSecrets, "show-secrets", false, "print secret values in plain text")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func (a *app) printResource(r *state.Resource) {
	tw := tabwriter.NewWriter(a.env.Stdout, 0, 4, 1, ' ', 0)
	for _, f := range resourceFields(r) {
		if f[1] != "" {
			fmt.Fprintf(tw, "%s:\t%s\n", f[0], f[1])
		}
	}
	tw.Flush()
	for _, part := range []struct {
		title string
		o     resource.Object
	}{{"Inputs", r.Inputs}, {"Outputs", r.Outputs}} {
		fmt.Fprintln(a.env.Stdout, part.title+":")
		keys := part.o.Keys()
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(a.env.Stdout, "  %s: %s\n", k, display.Value(part.o[k]))
		}
	}
}

func resourceFields(r *state.Resource) [][2]string {
	deps := make([]string, 0, len(r.Dependencies)+len(r.DependencyGroups))
	for _, d := range r.Dependencies {
		deps = append(deps, string(d))
	}
	for _, g := range r.DependencyGroups {
		deps = append(deps, string(g)+"[*]")
	}
	return [][2]string{
		{"URN", string(r.URN)}, {"Type", r.Type}, {"ID", idText(r)}, {"Provider", r.Provider},
		{"Parent", string(r.Parent)}, {"Depends on", strings.Join(deps, ", ")}, {"Notes", notes(r)},
		{"Init errors", strings.Join(r.InitErrors, "; ")},
		{"Created", timeText(r.Created)}, {"Modified", timeText(r.Modified)},
	}
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format(time.RFC3339)
}

func resourceJSON(r *state.Resource) map[string]any {
	out := map[string]any{}
	for _, f := range resourceFields(r) {
		if f[1] != "" {
			out[strings.ToLower(strings.ReplaceAll(f[0], " ", ""))] = f[1]
		}
	}
	out["inputs"] = display.JSONObject(r.Inputs)
	out["outputs"] = display.JSONObject(r.Outputs)
	return out
}

// runStateEdit locks the stack, runs an edit of its state and saves it.
func (a *app) runStateEdit(ctx context.Context, command string, yes bool, edit func(context.Context, *workspace, *state.Session) error) error {
	if err := a.needConfirmation(command, opFlags{yes: yes}); err != nil {
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
	s, err := ws.open(ctx, c, "plinth "+command)
	if err != nil {
		return err
	}
	err = edit(ctx, ws, s)
	if cerr := closeSession(s); cerr != nil && err == nil {
		err = cerr
	}
	return err
}

// confirmEdit asks before a state edit unless --yes.
func (a *app) confirmEdit(ctx context.Context, yes bool, question string) error {
	if yes {
		return nil
	}
	return a.confirm(ctx, question)
}
