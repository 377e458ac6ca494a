package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/state"
)

// ReadSecretsConfig reads the stack's secrets configuration.
func (b *Backend) ReadSecretsConfig(ctx context.Context, stack string) ([]byte, error) {
	if err := state.ValidateStackName(stack); err != nil {
		return nil, err
	}
	var data []byte
	err := b.pool.QueryRow(ctx, "SELECT data FROM plinth_secrets WHERE stack = $1", stack).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, notExist(stack, state.PartSecrets)
	}
	return data, b.fail("reading the secrets configuration", stack, err)
}

// WriteSecretsConfig replaces the stack's secrets configuration.
func (b *Backend) WriteSecretsConfig(ctx context.Context, stack string, data []byte) error {
	if err := state.ValidateStackName(stack); err != nil {
		return err
	}
	_, err := b.pool.Exec(ctx, upsertStack+`INSERT INTO plinth_secrets (stack, data) VALUES ($1, $2)
		ON CONFLICT (stack) DO UPDATE SET data = EXCLUDED.data`, stack, data)
	return b.fail("writing the secrets configuration", stack, err)
}

// ListStacks returns the names of the stacks, sorted.
func (b *Backend) ListStacks(ctx context.Context) ([]string, error) {
	rows, err := b.pool.Query(ctx, "SELECT name FROM plinth_stacks ORDER BY name COLLATE \"C\"")
	if err != nil {
		return nil, b.fail("listing", "(all)", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, b.fail("listing", "(all)", err)
	}
	return append([]string{}, names...), nil
}

// RemoveStack deletes every row of the stack, its lock row and history
// included, in one transaction.
func (b *Backend) RemoveStack(ctx context.Context, stack string) error {
	if err := state.ValidateStackName(stack); err != nil {
		return err
	}
	err := pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) error {
		for _, q := range []string{
			"DELETE FROM plinth_journal WHERE stack = $1", "DELETE FROM plinth_snapshots WHERE stack = $1",
			"DELETE FROM plinth_secrets WHERE stack = $1", "DELETE FROM plinth_locks WHERE stack = $1",
			"DELETE FROM plinth_history WHERE stack = $1", "DELETE FROM plinth_stacks WHERE name = $1",
		} {
			if _, err := tx.Exec(ctx, q, stack); err != nil {
				return err
			}
		}
		return nil
	})
	return b.fail("removing the rows", stack, err)
}
