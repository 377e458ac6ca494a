package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/tfstate"
)

// Formats other tools write their state in.
const (
	formatTerraform = "terraform"
	formatPulumi    = "pulumi"
)

func (a *app) stateAdoptCommand() *cobra.Command {
	var format, project string
	var force bool
	c := &cobra.Command{
		Use:   "adopt [FILE|-]",
		Short: "Take over the resources of a Terraform state or a Pulumi deployment",
		Long: "Adopt reads a Terraform state (format version 4: a terraform.tfstate, or `terraform state\n" +
			"pull` on standard input) or a Pulumi deployment (`pulumi stack export`, version 3) and\n" +
			"records its resources in the selected stack, which must record nothing unless --force\n" +
			"(then what it recorded is forgotten, not deleted). Nothing is created or changed in the\n" +
			"world: afterwards `plinth preview` of the same configuration shows no changes.\n\n" +
			"Terraform resources are named by their addresses (module.site[\"a\"].local_file.page[1]);\n" +
			"sensitive attributes and outputs become secrets; tainted instances stay tainted; deposed\n" +
			"objects are recorded for deletion; data sources are read again by the next run. Pulumi\n" +
			"secrets encrypted with a passphrase are opened with PULUMI_CONFIG_PASSPHRASE.\n\n" +
			"The adoption is one transaction: it happens in full, or the stack is left as it was.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			file := ""
			if len(args) == 1 && args[0] != "-" {
				file = a.path(args[0])
			}
			return a.runStateAdopt(c.Context(), file, format, project, force)
		},
	}
	c.Flags().StringVar(&format, "format", "", "the input's format, terraform or pulumi (default: recognised from the input)")
	c.Flags().StringVar(&project, "project", "", "the project name for the URNs (default: the program's name)")
	c.Flags().BoolVar(&force, "force", false, "adopt into a stack that already records resources, forgetting them")
	return c
}

func (a *app) runStateAdopt(ctx context.Context, file, format, project string, force bool) error {
	data, shown, err := a.readInput(file)
	if err != nil {
		return err
	}
	if format == "" {
		format = detectFormat(data)
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	if project == "" {
		if project, err = adoptProject(ws); err != nil {
			return display.Errorf("Cannot name the adopted resources", "Adopting needs the project's name for the URNs, and the program could not be read: %v. Fix the program, or pass --project NAME.", err)
		}
	}
	snap, notes, err := a.convertForeign(data, format, ws.stack, project)
	if err != nil {
		return display.Errorf("Cannot adopt "+shown, "%s cannot be adopted: %v. Nothing was changed.", shown, err)
	}
	crypter, err := ws.crypter(ctx)
	if err != nil {
		return err
	}
	s, err := ws.open(ctx, crypter, "plinth state adopt")
	if err != nil {
		return err
	}
	err = adoptInto(ctx, s, snap, force)
	if cerr := closeSession(s); cerr != nil && err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(a.env.Stderr, "note: "+n)
	}
	fmt.Fprintf(a.env.Stdout, "Adopted %s into stack %s: %s.\n", shown, ws.stack, adoptedSummary(snap))
	return nil
}

// adoptProject is the project name the adopted URNs get: a Pulumi
// program's is the name in its Pulumi.yaml (plinth runs the program
// through its language host and reads nothing else of it); other
// programs are loaded, and named as they name themselves.
func adoptProject(ws *workspace) (string, error) {
	if isPulumiProject(ws.dir) {
		return pulumiProjectName(ws.dir)
	}
	p, err := ws.program()
	if err != nil {
		return "", err
	}
	return p.Name(), nil
}

// convertForeign turns another tool's state into a snapshot.
func (a *app) convertForeign(data []byte, format, stack, project string) (*state.Snapshot, []string, error) {
	switch format {
	case formatTerraform:
		st, err := tfstate.Parse(data)
		if err != nil {
			return nil, nil, err
		}
		return tfstate.ToSnapshot(st, tfstate.Target{Stack: stack, Project: project})
	case formatPulumi:
		return a.convertPulumi(data, stack, project)
	case "plinth":
		return nil, nil, fmt.Errorf("it is a plinth state (`plinth state export`); load it with `plinth state import`")
	}
	return nil, nil, fmt.Errorf("--format %q is not a format plinth adopts; give terraform or pulumi", format)
}

// adoptInto records snap as the stack's state, at once and in full.
func adoptInto(ctx context.Context, s *state.Session, snap *state.Snapshot, force bool) error {
	if n := len(s.Snapshot().Resources); n > 0 && !force {
		return display.Errorf("Stack is not empty", "Stack %s already records %d resources, so nothing was adopted. "+
			"Adopt into a new stack (`plinth stack init NAME`), or pass --force to forget what it records (nothing is deleted).", s.Stack(), n)
	}
	if err := s.ReplaceSnapshot(ctx, snap); err != nil {
		return display.Errorf("Cannot adopt", "%v. Nothing was changed.", err)
	}
	return nil
}

// detectFormat recognises a Terraform state or a Pulumi deployment.
func detectFormat(data []byte) string {
	var probe struct {
		Deployment json.RawMessage `json:"deployment"`
		Manifest   json.RawMessage `json:"manifest"`
	}
	if json.Unmarshal(data, &probe) == nil && (probe.Deployment != nil || probe.Manifest != nil) {
		return formatPulumi
	}
	if bytes.Contains(data[:min(len(data), 4096)], []byte(`"checksum"`)) && bytes.Contains(data[:min(len(data), 4096)], []byte(`"seq"`)) {
		return "plinth"
	}
	return formatTerraform
}

// adoptedSummary counts what an adoption recorded.
func adoptedSummary(snap *state.Snapshot) string {
	var n, tainted, deposed int
	for _, r := range snap.Resources {
		switch {
		case state.IsProviderType(r.Type):
		case r.Delete:
			deposed++
		default:
			n++
			if r.Tainted {
				tainted++
			}
		}
	}
	return fmt.Sprintf("%d resources (%d tainted, %d pending deletion), %d outputs", n, tainted, deposed, len(snap.Outputs))
}
