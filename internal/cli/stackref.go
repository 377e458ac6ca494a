package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/plinth-iac/plinth/internal/monitor"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// stackReader reads the outputs of another stack of the project, from
// the backend the workspace opened, for a Pulumi program's stack
// references. The stack's secrets are opened with the same passphrase
// (or key) as the workspace's, read-only.
type stackReader struct {
	ws      *workspace
	project string
}

var _ monitor.StackReader = stackReader{}

// StackOutputs implements monitor.StackReader.
func (r stackReader) StackOutputs(ctx context.Context, project, stack string) (resource.Object, error) {
	if project != "" && project != r.project {
		return nil, fmt.Errorf("plinth reads stack references from this project's backend only, and stack %s/%s belongs to project %s, not %s; name a stack of project %s", project, stack, project, r.project, r.project)
	}
	if ok, err := r.ws.stackExists(ctx, stack); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("the backend (%s) has no stack %s; create it with `plinth up --stack %s`, or check the name", describeBackend(r.ws.backend), stack, stack)
	}
	other := *r.ws
	other.stack = stack
	cf, err := other.configFile()
	if err != nil {
		return nil, err
	}
	c, err := other.crypterFor(ctx, cf, true)
	if errors.Is(err, secrets.ErrWrongPassphrase) {
		return nil, fmt.Errorf("stack %s's secrets are sealed with a passphrase other than stack %s's, and plinth opens a referenced stack with the one passphrase in %s; give both stacks the same passphrase", stack, r.ws.stack, secrets.PassphraseEnv)
	}
	if err != nil {
		return nil, err
	}
	snap, err := other.load(ctx, c)
	if err != nil {
		return nil, err
	}
	return snap.Outputs, nil
}
