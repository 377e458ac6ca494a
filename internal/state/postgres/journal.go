package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/state"
)

// AppendJournal inserts the records, in order, as one row: one
// statement, one transaction, so a batch is stored whole or not at all.
func (b *Backend) AppendJournal(ctx context.Context, stack string, records [][]byte) error {
	if err := b.check(ctx, stack); err != nil {
		return err
	}
	for _, r := range records {
		if len(r) == 0 {
			return fmt.Errorf("%s: an empty record cannot be stored", b.Describe(stack, state.PartJournal))
		}
	}
	if len(records) == 0 {
		return nil
	}
	l := b.lock(stack)
	if l == nil {
		err := retry(ctx, false, func() error {
			_, err := appendRecords(ctx, b.pool, b.project, stack, records)
			return err
		})
		return b.fail("appending to the journal", stack, err)
	}
	return b.fail("appending to the journal", stack, l.append(ctx, records))
}

// A journal row holds either one record (data: rows a plinth before
// schema version 5 wrote) or one append's records in order (records).
const (
	appendSQL = upsertStack + `INSERT INTO plinth_journal (project, stack, records) VALUES ($1, $2, $3)`

	// appendMarkSQL appends the records and moves the stack's mark to the
	// last one's sequence number ($4) in the same statement, keeping the
	// lineage and serial the row holds: they change only with a new
	// snapshot, whose compaction rewrites the row. A stack without a row
	// gets one without a lineage, compared by sequence alone, until the
	// session's WriteMark gives it one.
	appendMarkSQL = upsertStack + `, j AS (INSERT INTO plinth_journal (project, stack, records) VALUES ($1, $2, $3))
	INSERT INTO plinth_marks (project, stack, lineage, serial, seq, written) VALUES ($1, $2, '', 0, $4, now())
	ON CONFLICT (project, stack) DO UPDATE SET seq = EXCLUDED.seq, written = EXCLUDED.written
	RETURNING lineage, serial, seq`

	// readJournalSQL reads the journal's rows in order, each a record
	// (data) or a batch of them (records).
	readJournalSQL = "SELECT data, records FROM plinth_journal WHERE project = $1 AND stack = $2 ORDER BY id"
)

// appendRecords appends the records and, if they are the state
// package's (each starts with its sequence number), moves the stack's
// mark to the last one. It returns the mark the row then holds, nil if
// it was left alone.
func appendRecords(ctx context.Context, db dbConn, project, stack string, records [][]byte) (*rowMark, error) {
	seq, ok := recordSeq(records[len(records)-1])
	if !ok {
		_, err := db.Exec(ctx, appendSQL, project, stack, records)
		return nil, err
	}
	var m rowMark
	err := db.QueryRow(ctx, appendMarkSQL, project, stack, records, int64(seq)).Scan(&m.Lineage, &m.Serial, &m.Seq)
	if err != nil {
		return nil, err
	}
	return &m, nil
}

// stored reports whether the journal's last row is the batch of records:
// whether an append whose connection died before it answered was
// committed. Only the lock holder appends, so nothing can follow it.
func stored(ctx context.Context, db dbConn, project, stack string, records [][]byte) (bool, error) {
	var data []byte
	var last [][]byte
	err := db.QueryRow(ctx, "SELECT data, records FROM plinth_journal WHERE project = $1 AND stack = $2 ORDER BY id DESC LIMIT 1",
		project, stack).Scan(&data, &last)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	return err == nil && slices.EqualFunc(last, records, bytes.Equal), err
}

// journalRows collects the records of the journal rows a query returns
// (data, records), in order, and closes rows.
func journalRows(rows pgx.Rows) ([][]byte, error) {
	defer rows.Close()
	var recs [][]byte
	for rows.Next() {
		var data []byte
		var batch [][]byte
		if err := rows.Scan(&data, &batch); err != nil {
			return nil, err
		}
		if batch == nil {
			batch = [][]byte{data}
		}
		recs = append(recs, batch...)
	}
	return recs, rows.Err()
}

// ReadJournal returns the stack's journal records in order. A
// transactional journal cannot be torn: JournalRead.Torn is always nil.
func (b *Backend) ReadJournal(ctx context.Context, stack string) (state.JournalRead, error) {
	if err := b.check(ctx, stack); err != nil {
		return state.JournalRead{}, err
	}
	var recs [][]byte
	err := retry(ctx, true, func() error {
		rows, err := b.pool.Query(ctx, readJournalSQL, b.project, stack)
		if err == nil {
			recs, err = journalRows(rows)
		}
		return err
	})
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
