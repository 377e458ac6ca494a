package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/pulumistate"
	"github.com/plinth-iac/plinth/internal/state/tfstate"
)

func (a *app) stateExportCommand() *cobra.Command {
	var file, format, previous string
	var force bool
	var tf tfstate.ExportOptions
	var pu pulumistate.ExportOptions
	c := &cobra.Command{
		Use:   "export",
		Short: "Write the stack's state as JSON",
		Long: "Export writes the state (journal replayed) as JSON to standard output or --file.\n" +
			"Secrets stay encrypted with the stack's key, so the file can be imported back into\n" +
			"this stack. It does not lock the stack and works on state that fails integrity checks,\n" +
			"so that it can be repaired and imported.\n\n" +
			"When the snapshot or journal is damaged, --force salvages everything that can still be\n" +
			"read: the snapshot (else its backup), and the journal up to the first damaged record.\n" +
			"It says on standard error exactly what it had to drop.\n\n" +
			"--format terraform writes a Terraform state (format version 4) that terraform can plan\n" +
			"against; --format pulumi writes a deployment for `pulumi stack import`, its secrets\n" +
			"encrypted with PULUMI_CONFIG_PASSPHRASE. Both hold secrets as their tools do: a\n" +
			"Terraform state holds sensitive values in plain text, and a Pulumi deployment holds\n" +
			"every resource ID in plain text, so an ID derived from a secret refuses the Pulumi\n" +
			"export unless --plaintext-ids.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := applyPrevious(&tf, previous, c.Flags().Changed("serial")); err != nil {
				return err
			}
			ws, crypter, snap, err := a.exportState(c.Context(), force)
			if err != nil {
				return err
			}
			pu.Stack, pu.Project = ws.stack, exportProject(ws)
			data, err := a.encodeExport(snap, crypter, format, tf, pu)
			if err != nil {
				return err
			}
			if file == "" {
				_, err = a.env.Stdout.Write(append(data, '\n'))
				return err
			}
			return writeFileAtomic(file, append(data, '\n'), 0o600)
		},
	}
	c.Flags().StringVarP(&file, "file", "f", "", "write to this `file` instead of standard output")
	c.Flags().BoolVar(&force, "force", false, "salvage what can be read of a damaged state, and say what was dropped")
	c.Flags().StringVar(&format, "format", "plinth", "the format to write: plinth, terraform or pulumi")
	c.Flags().StringVar(&tf.Lineage, "lineage", "", "with --format terraform: the state's lineage (default: a new one)")
	c.Flags().Uint64Var(&tf.Serial, "serial", 1, "with --format terraform: the state's serial number")
	c.Flags().StringVar(&tf.TerraformVersion, "terraform-version", "1.11.4", "with --format terraform: the terraform_version to write")
	c.Flags().BoolVar(&pu.PlaintextIDs, "plaintext-ids", false, "with --format pulumi: write IDs derived from secrets in plain text (Pulumi's format cannot seal an ID)")
	c.Flags().StringVar(&previous, "previous", "", "with --format terraform: the Terraform state `file` this export replaces; its lineage, next serial, and the types of outputs and terraform_data values are kept")
	markPaths(c, "file", "previous")
	return c
}

// applyPrevious takes from the Terraform state an export replaces what
// plinth does not keep: its lineage (unless --lineage), the next serial
// (unless --serial), and the types of its outputs and of terraform_data's
// input and output, so that terraform sees a list as a list and a map as
// a map.
func applyPrevious(tf *tfstate.ExportOptions, file string, serialGiven bool) error {
	if file == "" {
		return nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return display.Errorf("Cannot read the previous state", "--previous %s cannot be read: %v.", file, err)
	}
	prev, err := tfstate.Parse(data)
	if err != nil {
		return display.Errorf("Cannot read the previous state", "--previous %s is not a Terraform state plinth reads: %v.", file, err)
	}
	if tf.Lineage == "" {
		tf.Lineage = prev.Lineage
	}
	if !serialGiven {
		tf.Serial = prev.Serial + 1
	}
	tf.OutputTypes = map[string]json.RawMessage{}
	for name, o := range prev.Outputs {
		tf.OutputTypes[name] = o.Type
	}
	tf.DynamicTypes = tfstate.DynamicTypes(prev)
	return nil
}

// encodeExport writes the state in the format asked for.
func (a *app) encodeExport(snap *state.Snapshot, crypter state.Crypter, format string, tf tfstate.ExportOptions, pu pulumistate.ExportOptions) ([]byte, error) {
	var data []byte
	var notes []string
	var err error
	switch format {
	case "plinth", "":
		data, err = state.EncodeSnapshot(snap, 0, crypter)
	case formatTerraform:
		var st *tfstate.State
		if st, notes, err = tfstate.FromSnapshot(snap, tf); err == nil {
			data, err = tfstate.Marshal(st)
		}
	case formatPulumi:
		data, notes, err = a.exportPulumi(snap, pu)
	default:
		return nil, display.Errorf("Unknown format", "--format %q is not a format plinth writes; give plinth, terraform or pulumi.", format)
	}
	if err != nil {
		return nil, display.Errorf("Cannot export the state", "The state cannot be written as a %s state: %v.", format, err)
	}
	for _, n := range notes {
		fmt.Fprintln(a.env.Stderr, "note: "+n)
	}
	return bytes.TrimRight(data, "\n"), nil
}

// exportState reads the state to export: as it loads, or with force,
// whatever can be salvaged of it.
func (a *app) exportState(ctx context.Context, force bool) (*workspace, *secrets.Crypter, *state.Snapshot, error) {
	if !force {
		return a.stateContext(ctx, false)
	}
	ws, err := a.workspace()
	if err != nil {
		return nil, nil, nil, err
	}
	c, err := ws.crypter(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	snap, notes, err := state.Salvage(ctx, ws.backend, ws.stack, c)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, n := range notes {
		d := display.Diagnostic{Severity: engine.SeverityWarning, Summary: "Salvage", Detail: n}
		fmt.Fprintln(a.env.Stderr, d.Format(a.colourFor(false)))
	}
	if len(notes) == 0 {
		fmt.Fprintf(a.env.Stderr, "The state of stack %s read cleanly; nothing was dropped.\n", ws.stack)
	} else {
		fmt.Fprintf(a.env.Stderr, "Salvaged %d resources and %d pending operations of stack %s; check them, then load the file with `plinth state import --file FILE`.\n",
			countResources(snap), len(snap.Pending), ws.stack)
	}
	return ws, c, snap, nil
}

func (a *app) stateImportCommand() *cobra.Command {
	var file string
	var yes bool
	c := &cobra.Command{
		Use:   "import",
		Short: "Replace the stack's state with JSON from `state export`",
		Long: "Import replaces the whole state of the stack with a file written by `plinth state\n" +
			"export` (possibly repaired by hand), read from standard input or --file. The file must\n" +
			"pass the integrity checks; secrets must be encrypted with this stack's key.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.runStateImport(c.Context(), file, yes)
		},
	}
	c.Flags().StringVarP(&file, "file", "f", "", "read from this `file` instead of standard input")
	markPaths(c, "file")
	c.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask for confirmation")
	return c
}

func (a *app) runStateImport(ctx context.Context, file string, yes bool) error {
	if err := a.needConfirmation("state import", opFlags{yes: yes}); err != nil {
		return err
	}
	data, shown, err := a.readInput(file)
	if err != nil {
		return err
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	crypter, err := ws.crypter(ctx)
	if err != nil {
		return err
	}
	snap, note, err := state.DecodeExport(data, crypter)
	if err != nil {
		return display.Errorf("Invalid state file", "%s cannot be read as a plinth state: %v. Nothing was changed.", shown, err)
	}
	if note != "" {
		fmt.Fprintln(a.env.Stderr, "note: "+note)
	}
	if err := snap.Verify(); err != nil {
		return display.Errorf("Invalid state file", "%s fails the integrity check: %v. Nothing was changed.", shown, err)
	}
	if err := a.confirmEdit(ctx, yes, fmt.Sprintf("Replace the state of stack %s with %s (%d resources)?", ws.stack, shown, countResources(snap))); err != nil {
		return err
	}
	if err := replaceState(ctx, ws, crypter, snap); err != nil {
		return err
	}
	fmt.Fprintf(a.env.Stdout, "Imported %s into stack %s.\n", shown, ws.stack)
	return nil
}

func (a *app) readInput(file string) ([]byte, string, error) {
	if file == "" {
		data, err := io.ReadAll(a.env.Stdin)
		return data, "standard input", err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, file, display.Errorf("Cannot read file", "%v.", err)
	}
	return data, file, nil
}

// replaceState makes snap the stack's state through a session, or, when
// the stored state is too damaged to open, under the stack's lock
// directly: importing a repaired export is how damage is fixed.
func replaceState(ctx context.Context, ws *workspace, c state.Crypter, snap *state.Snapshot) error {
	s, err := state.Open(ctx, ws.backend, ws.stack, state.OpenOptions{Crypter: c, Command: "plinth state import", LockWait: ws.lockWait()})
	var damaged *state.DamagedError
	var missing *state.MissingSnapshotError
	switch {
	case err == nil:
		return errors.Join(s.ReplaceSnapshot(ctx, snap), closeSession(s))
	case !errors.As(err, &damaged) && !errors.As(err, &missing) && !errors.Is(err, state.ErrRolledBack):
		return err
	}
	return state.WriteImported(ctx, ws.backend, ws.stack, snap, c, ws.lockWait())
}
