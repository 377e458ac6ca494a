package postgres

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/state"
)

var _ state.HistoryStore = (*Backend)(nil)

// AppendHistory inserts the record (JSON) as a row of plinth_history.
func (b *Backend) AppendHistory(ctx context.Context, stack string, record []byte) error {
	if err := b.check(ctx, stack); err != nil {
		return err
	}
	var id struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(record, &id)
	err := retry(ctx, false, func() error {
		_, err := b.pool.Exec(ctx, upsertStack+`INSERT INTO plinth_history (project, stack, operation, data) VALUES ($1, $2, $3, $4::jsonb)`,
			b.project, stack, id.ID, string(record))
		return err
	})
	return b.fail("recording the history", stack, err)
}

// ReadHistory returns the stack's history rows in order.
func (b *Backend) ReadHistory(ctx context.Context, stack string) ([][]byte, error) {
	if err := b.check(ctx, stack); err != nil {
		return nil, err
	}
	return b.historyRows(ctx, stack, "SELECT data::text FROM plinth_history WHERE project = $1 AND stack = $2 ORDER BY id", b.project, stack)
}

// historyRows runs a query of history rows' data for stack.
func (b *Backend) historyRows(ctx context.Context, stack, query string, args ...any) ([][]byte, error) {
	var recs [][]byte
	err := retry(ctx, true, func() error {
		rows, err := b.pool.Query(ctx, query, args...)
		if err == nil {
			recs, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) ([]byte, error) {
				var s string
				err := r.Scan(&s)
				return []byte(s), err
			})
		}
		return err
	})
	return recs, b.fail("reading the history", stack, err)
}
