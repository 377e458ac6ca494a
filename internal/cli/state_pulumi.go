package cli

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/pulumistate"
)

// pulumiPassphraseEnv holds the passphrase of Pulumi's passphrase secrets
// provider, as for the pulumi command.
const pulumiPassphraseEnv = "PULUMI_CONFIG_PASSPHRASE"

// convertPulumi maps a `pulumi stack export` deployment to a snapshot.
func (a *app) convertPulumi(data []byte, stack, project string) (*state.Snapshot, []string, error) {
	d, err := pulumistate.Parse(data)
	if err != nil {
		return nil, nil, err
	}
	phrase := a.env.getenv(pulumiPassphraseEnv)
	ok := phrase != ""
	return pulumistate.ToSnapshot(d, pulumistate.Target{Stack: stack, Project: project, Passphrase: phrase, HasPassphrase: ok})
}

// exportPulumi writes a deployment for `pulumi stack import`, its secrets
// sealed for the passphrase secrets provider when a passphrase is set.
func (a *app) exportPulumi(snap *state.Snapshot, opts pulumistate.ExportOptions) ([]byte, []string, error) {
	var p *pulumistate.Passphrase
	if phrase := a.env.getenv(pulumiPassphraseEnv); phrase != "" {
		var err error
		if p, err = pulumistate.NewPassphrase(phrase); err != nil {
			return nil, nil, err
		}
	}
	data, err := pulumistate.FromSnapshot(snap, p, time.Now(), opts)
	return data, pendingNotes(snap), err
}

// exportProject is the project name a Pulumi export gives the stack
// resource of a stack without resources (whose URNs would give it): the
// program's, else the project directory's name.
func exportProject(ws *workspace) string {
	if name, err := projectName(ws.dir); err == nil && name != "" {
		return name
	}
	return filepath.Base(ws.dir)
}

// pendingNotes warns that `pulumi stack import` drops the pending
// operations an export carries (it removes every one, with a warning),
// so that a resource whose create may have happened is not forgotten.
func pendingNotes(snap *state.Snapshot) []string {
	if len(snap.Pending) == 0 {
		return nil
	}
	what := fmt.Sprintf("%d pending operations, which", len(snap.Pending))
	if len(snap.Pending) == 1 {
		what = "1 pending operation, which"
	}
	return []string{"the export holds " + what + " `pulumi stack import` drops: resolve them first (`plinth state pending`, or `plinth refresh`), or Pulumi may forget a resource that exists"}
}
