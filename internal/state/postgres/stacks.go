package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/state"
)

// ReadSecretsConfig reads the stack's secrets configuration.
func (b *Backend) ReadSecretsConfig(ctx context.Context, stack string) ([]byte, error) {
	if err := b.check(ctx, stack); err != nil {
		return nil, err
	}
	var data []byte
	err := b.pool.QueryRow(ctx, "SELECT data FROM plinth_secrets WHERE project = $1 AND stack = $2", b.project, stack).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, notExist(stack, state.PartSecrets)
	}
	return data, b.fail("reading the secrets configuration", stack, err)
}

// CreateSecretsConfig inserts the stack's secrets configuration unless
// it has one. Of two concurrent inserts the second waits for the first
// to commit and then inserts nothing (ON CONFLICT DO NOTHING); it then
// reads the row the first committed, in a statement of its own, whose
// snapshot sees it. A row removed in between (the stack removed) is
// inserted again.
func (b *Backend) CreateSecretsConfig(ctx context.Context, stack string, data []byte) (bool, []byte, error) {
	if err := b.check(ctx, stack); err != nil {
		return false, nil, err
	}
	for range 3 {
		tag, err := b.pool.Exec(ctx, upsertStack+`INSERT INTO plinth_secrets (project, stack, data) VALUES ($1, $2, $3)
			ON CONFLICT (project, stack) DO NOTHING`, b.project, stack, data)
		if err != nil {
			return false, nil, b.fail("creating the secrets configuration", stack, err)
		}
		if tag.RowsAffected() == 1 {
			return true, nil, nil
		}
		existing, err := b.ReadSecretsConfig(ctx, stack)
		if !errors.Is(err, fs.ErrNotExist) {
			return false, existing, err
		}
	}
	return false, nil, b.fail("creating the secrets configuration", stack, errors.New("the row was removed each time it was read back"))
}

// WriteSecretsConfig replaces the stack's secrets configuration.
func (b *Backend) WriteSecretsConfig(ctx context.Context, stack string, data []byte) error {
	if err := b.check(ctx, stack); err != nil {
		return err
	}
	_, err := b.pool.Exec(ctx, upsertStack+`INSERT INTO plinth_secrets (project, stack, data) VALUES ($1, $2, $3)
		ON CONFLICT (project, stack) DO UPDATE SET data = EXCLUDED.data`, b.project, stack, data)
	return b.fail("writing the secrets configuration", stack, err)
}

// ListStacks returns the names of the project's stacks, sorted, with
// those no project has claimed (every use of which is refused, saying how
// to claim it): never another project's.
func (b *Backend) ListStacks(ctx context.Context) ([]string, error) {
	var names []string
	err := retry(ctx, true, func() error {
		rows, err := b.pool.Query(ctx, `SELECT DISTINCT name COLLATE "C" AS n FROM plinth_stacks WHERE project = $1 OR project = ''
		ORDER BY n`, b.project)
		if err == nil {
			names, err = pgx.CollectRows(rows, pgx.RowTo[string])
		}
		return err
	})
	if err != nil {
		return nil, b.fail("listing", "(all)", err)
	}
	return append([]string{}, names...), nil
}

// RemoveStack deletes every row of the project's stack, its lock row and
// history included, in one transaction.
func (b *Backend) RemoveStack(ctx context.Context, stack string) error {
	if err := b.check(ctx, stack); err != nil {
		return err
	}
	err := pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) error {
		for _, t := range stackTables {
			q := fmt.Sprintf("DELETE FROM %s WHERE project = $1 AND %s = $2", t.table, t.column)
			if _, err := tx.Exec(ctx, q, b.project, stack); err != nil {
				return err
			}
		}
		return nil
	})
	return b.fail("removing the rows", stack, err)
}
