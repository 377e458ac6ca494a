package cli

import (
	"errors"

	"github.com/plinth-iac/plinth/internal/state"
)

func (a *app) convertPulumi(data []byte, stack, project string) (*state.Snapshot, []string, error) {
	return nil, nil, errors.New("Pulumi deployments are not supported yet")
}

func (a *app) exportPulumi(snap *state.Snapshot) ([]byte, []string, error) {
	return nil, nil, errors.New("Pulumi deployments are not supported yet")
}
