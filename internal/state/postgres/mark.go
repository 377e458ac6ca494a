package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/state"
)

// Marks (state.Mark: lineage, serial, sequence) live in plinth_marks, one
// row per stack, apart from the rows of the state they describe: putting
// back an older plinth_snapshots row, with or without the plinth_journal
// rows of its time, leaves the mark where it was, and loading refuses the
// older state. The row is written in the statement that appends to the
// journal and in the transaction that compacts, so it never lags the
// journal, even in a crash; the session's own WriteMark after each append
// finds the row holding its mark already and costs no round trip.
//
// The limit: a restore that also puts back plinth_marks (and
// plinth_history) as they were, such as a restore of the whole database
// from a backup, rolls the stack back consistently, and plinth cannot tell.

var (
	_ state.MarkStore         = (*Backend)(nil)
	_ state.HistoryTailReader = (*Backend)(nil)
)

// rowMark is what a plinth_marks row holds.
type rowMark struct {
	Lineage string `json:"lineage"`
	Serial  uint64 `json:"serial"`
	Seq     uint64 `json:"seq"`
}

// markJSON is the form of a mark the state package writes and reads
// (WriteMark, ReadMark): the mark, and when it was written.
type markJSON struct {
	State *rowMark  `json:"state"`
	Time  time.Time `json:"time,omitzero"`
}

// ReadMark returns the stack's mark as the state package wrote it. A
// stack without one fails with an error matching fs.ErrNotExist.
func (b *Backend) ReadMark(ctx context.Context, stack string) ([]byte, error) {
	if err := b.check(ctx, stack); err != nil {
		return nil, err
	}
	var m rowMark
	var written time.Time
	err := retry(ctx, true, func() error {
		return b.pool.QueryRow(ctx, "SELECT lineage, serial, seq, written FROM plinth_marks WHERE project = $1 AND stack = $2",
			b.project, stack).Scan(&m.Lineage, &m.Serial, &m.Seq, &written)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, notExist(stack, "mark")
	}
	if err != nil {
		return nil, b.fail("reading the mark", stack, err)
	}
	return json.Marshal(markJSON{State: &m, Time: written.UTC()})
}

// WriteMark records the stack's newest mark. After a journal append the
// row holds it already (the append wrote it), and nothing is sent.
func (b *Backend) WriteMark(ctx context.Context, stack string, data []byte) error {
	if err := b.check(ctx, stack); err != nil {
		return err
	}
	var r markJSON
	if err := json.Unmarshal(data, &r); err != nil || r.State == nil {
		return fmt.Errorf("recording the mark of stack %s of project %s in %s: %q is not a mark the state package wrote (no \"state\" object), so it was not stored",
			stack, b.project, b.shown, data)
	}
	m := *r.State
	if l := b.lock(stack); l != nil {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.mark != nil && *l.mark == m {
			return nil
		}
		l.mark = nil
		if err := upsertMark(ctx, l.conn, b.project, stack, m); err != nil {
			return b.fail("recording the mark", stack, err)
		}
		l.mark = &m
		return nil
	}
	// Idempotent: the row is set to m however often it runs.
	return b.fail("recording the mark", stack, retry(ctx, true, func() error { return upsertMark(ctx, b.pool, b.project, stack, m) }))
}

func upsertMark(ctx context.Context, db dbConn, project, stack string, m rowMark) error {
	_, err := db.Exec(ctx, `INSERT INTO plinth_marks (project, stack, lineage, serial, seq, written) VALUES ($1, $2, $3, $4, $5, now())
		ON CONFLICT (project, stack) DO UPDATE SET lineage = EXCLUDED.lineage, serial = EXCLUDED.serial, seq = EXCLUDED.seq, written = EXCLUDED.written`,
		project, stack, m.Lineage, int64(m.Serial), int64(m.Seq))
	return err
}

// lock returns the stack's lock if this backend holds it, else nil.
func (b *Backend) lock(stack string) *pgLock {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.locks[stack]
}

// recordSeq returns the sequence number a journal record of the state
// package starts with (`{"seq":N,`), and false for any other record.
func recordSeq(rec []byte) (uint64, bool) {
	rest, ok := bytes.CutPrefix(rec, []byte(`{"seq":`))
	if !ok {
		return 0, false
	}
	end := bytes.IndexByte(rest, ',')
	if end < 0 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(rest[:end]), 10, 64)
	return n, err == nil && n > 0
}

// snapshotMark reads the mark at the head of a stored snapshot of the
// state package ({"version":…,"checksum":…,"seq":…,"lineage":…,"serial":…,
// then the resources), stopping at the first key that is none of those,
// so that a large snapshot is not parsed again. It reports false for a
// snapshot without a lineage and serial: it is compared by its sequence
// number alone, and leaves the stored mark as it is.
func snapshotMark(data []byte) (rowMark, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return rowMark{}, false
	}
	var m rowMark
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return rowMark{}, false
		}
		var dst any
		switch t {
		case "seq":
			dst = &m.Seq
		case "lineage":
			dst = &m.Lineage
		case "serial":
			dst = &m.Serial
		case "version", "checksum":
			dst = new(json.RawMessage)
		default:
			return m, m.Lineage != "" && m.Serial > 0
		}
		if err := dec.Decode(dst); err != nil {
			return rowMark{}, false
		}
	}
	return m, m.Lineage != "" && m.Serial > 0
}

// historyTail is how many history rows ReadHistoryTail returns: an
// operation writes two, so the last mark is among them unless the stack's
// last operations were written by a plinth that recorded no marks.
const historyTail = 32

// ReadHistoryTail returns the stack's last history rows, in order.
func (b *Backend) ReadHistoryTail(ctx context.Context, stack string) ([][]byte, error) {
	if err := b.check(ctx, stack); err != nil {
		return nil, err
	}
	return b.historyRows(ctx, stack, `SELECT data::text FROM (SELECT id, data FROM plinth_history
		WHERE project = $1 AND stack = $2 ORDER BY id DESC LIMIT $3) t ORDER BY id`, b.project, stack, historyTail)
}
