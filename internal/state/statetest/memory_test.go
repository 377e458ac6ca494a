package statetest

import (
	"testing"

	"github.com/plinth-iac/plinth/internal/state"
)

func TestMemoryBackendConforms(t *testing.T) {
	Run(t, func(*testing.T) state.Backend { return NewMemoryBackend() })
}
