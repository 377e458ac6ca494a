package postgres

import (
	"bytes"
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/state"
)

// AppendJournal inserts the records, in order, with one statement: one
// transaction, so a batch is stored whole or not at all.
func (b *Backend) AppendJournal(ctx context.Context, stack string, records [][]byte) error {
	if err := b.check(ctx, stack); err != nil {
		return err
	}
	for _, r := range records {
		if len(r) == 0 {
			return fmt.Errorf("%s: an empty record cannot be stored", b.Describe(stack, state.PartJournal))
		}
	}
	b.mu.Lock()
	l := b.locks[stack]
	b.mu.Unlock()
	if l == nil {
		return b.fail("appending to the journal", stack, appendRecords(ctx, b.pool, b.project, stack, records))
	}
	return b.fail("appending to the journal", stack, l.append(ctx, records))
}

const appendSQL = upsertStack + `INSERT INTO plinth_journal (project, stack, data)
	SELECT $1, $2, r.data FROM unnest($3::bytea[]) WITH ORDINALITY AS r(data, n) ORDER BY r.n`

func appendRecords(ctx context.Context, db dbConn, project, stack string, records [][]byte) error {
	_, err := db.Exec(ctx, appendSQL, project, stack, records)
	return err
}

// stored reports whether the journal ends with records: whether an append
// whose connection died before it answered was committed. Only the lock
// holder appends, so nothing can follow them.
func stored(ctx context.Context, db dbConn, project, stack string, records [][]byte) (bool, error) {
	rows, err := db.Query(ctx, "SELECT data FROM plinth_journal WHERE project = $1 AND stack = $2 ORDER BY id DESC LIMIT $3",
		project, stack, len(records))
	if err != nil {
		return false, err
	}
	tail, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil || len(tail) != len(records) {
		return false, err
	}
	for i, r := range records {
		if !bytes.Equal(tail[len(tail)-1-i], r) {
			return false, nil
		}
	}
	return true, nil
}

// ReadJournal returns the stack's journal records in order. A
// transactional journal cannot be torn: JournalRead.Torn is always nil.
func (b *Backend) ReadJournal(ctx context.Context, stack string) (state.JournalRead, error) {
	if err := b.check(ctx, stack); err != nil {
		return state.JournalRead{}, err
	}
	rows, err := b.pool.Query(ctx, "SELECT data FROM plinth_journal WHERE project = $1 AND stack = $2 ORDER BY id", b.project, stack)
	if err != nil {
		return state.JournalRead{}, b.fail("reading the journal", stack, err)
	}
	recs, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil {
		return state.JournalRead{}, b.fail("reading the journal", stack, err)
	}
	return state.JournalRead{Records: recs}, nil
}

// TruncateJournal deletes the stack's journal rows.
func (b *Backend) TruncateJournal(ctx context.Context, stack string) error {
	if err := b.check(ctx, stack); err != nil {
		return err
	}
	err := b.onLock(ctx, stack, func(db dbConn) error {
		_, err := db.Exec(ctx, "DELETE FROM plinth_journal WHERE project = $1 AND stack = $2", b.project, stack)
		return err
	})
	return b.fail("emptying the journal", stack, err)
}
