package postgres_test

import (
	"context"
	"errors"
	"testing"

	"github.com/plinth-iac/plinth/internal/state/postgres"
)

// TestCancelledIsNotUnreachable: a statement of a command that was
// cancelled (interrupted) fails as cancelled, not as a server that
// cannot be reached, for the server is fine.
func TestCancelledIsNotUnreachable(t *testing.T) {
	b := open(t)
	seed(t, b)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, op := range backendOps() {
		_, err := op.run(ctx, b)
		var ue *postgres.UnreachableError
		if !errors.Is(err, context.Canceled) || errors.As(err, &ue) {
			t.Errorf("%s with a cancelled context: error = %v, want one matching context.Canceled and no *postgres.UnreachableError", op.name, err)
		}
	}
}
