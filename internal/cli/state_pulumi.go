package cli

import (
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
func (a *app) exportPulumi(snap *state.Snapshot) ([]byte, []string, error) {
	var p *pulumistate.Passphrase
	if phrase := a.env.getenv(pulumiPassphraseEnv); phrase != "" {
		var err error
		if p, err = pulumistate.NewPassphrase(phrase); err != nil {
			return nil, nil, err
		}
	}
	data, err := pulumistate.FromSnapshot(snap, p, time.Now())
	return data, nil, err
}
