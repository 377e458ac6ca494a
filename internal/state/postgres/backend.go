package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/plinth-iac/plinth/internal/state"
)

// Backend stores one project's stacks in a PostgreSQL database: every
// row it reads or writes is keyed by the project and the stack, so that
// projects sharing a database never share a stack. It is safe for
// concurrent use; the lock keeps processes apart. Close it when done.
type Backend struct {
	url, shown, password string
	// addr is the server's host:port, for messages.
	addr    string
	project string
	pool    *pgxpool.Pool

	mu sync.Mutex
	// locks are the locks this backend holds, by stack: the stack's
	// journal is written on the lock's connection, so that a write
	// fails as soon as the lock may be lost.
	locks map[string]*pgLock
	// regainFor is how long a lock whose connection died is tried for.
	regainFor time.Duration
	// unclaimed are the stacks an older plinth wrote whose project is
	// not known and which this project has none of its own by: every
	// use of them is refused (see claim.go).
	unclaimed map[string]bool
}

var (
	_ state.Backend     = (*Backend)(nil)
	_ state.Compactor   = (*Backend)(nil)
	_ state.BackupStore = (*Backend)(nil)
)

// Config says which database to open, and for which project.
type Config struct {
	// URL is the database's URL: postgres://user:password@host:port/db.
	URL string
	// Project is the project whose stacks the backend holds (the
	// program's project name, as its URNs spell it). Required.
	Project string
}

// Open connects to the database at cfg.URL for cfg.Project, creating or
// migrating plinth's tables if needed.
func Open(ctx context.Context, cfg Config) (*Backend, error) {
	b := newBackend(cfg)
	if cfg.Project == "" {
		return nil, fmt.Errorf("opening the state backend %s: no project was given, and the database keeps each project's stacks apart", b.shown)
	}
	err := b.open(ctx, SchemaVersion)
	if err == nil {
		err = b.loadUnclaimed(ctx)
	}
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("opening the state backend %s: %w", b.shown, b.scrub(b.unreachable(err)))
	}
	return b, nil
}

func newBackend(cfg Config) *Backend {
	return &Backend{url: cfg.URL, shown: Redact(cfg.URL), password: password(cfg.URL), addr: serverAddr(cfg.URL), project: cfg.Project,
		locks: map[string]*pgLock{}, regainFor: 60 * time.Second, unclaimed: map[string]bool{}}
}

func (b *Backend) open(ctx context.Context, version int) error {
	cfg, err := pgxpool.ParseConfig(b.url)
	if err != nil {
		return err
	}
	cfg.MaxConns = 8
	cfg.ShouldPing = shouldPing
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	if b.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return err
	}
	// The migration runs on the pool's first connection, which the
	// reads that follow use: a command opens one connection fewer.
	conn, err := b.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	return migrate(ctx, conn.Conn(), version)
}

// connectTimeout bounds each connection attempt whose URL sets no
// connect_timeout.
const connectTimeout = 15 * time.Second

// connect opens a connection of its own (not from the pool).
func (b *Backend) connect(ctx context.Context) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(b.url)
	if err != nil {
		return nil, err
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = connectTimeout
	}
	return pgx.ConnectConfig(ctx, cfg)
}

// Close closes the backend's connections. Locks are released by their
// Unlockers, or with their connections.
func (b *Backend) Close() {
	if b.pool != nil {
		b.pool.Close()
	}
}

// String returns the database's URL with any password redacted.
func (b *Backend) String() string { return b.shown }

// Project returns the project whose stacks the backend holds.
func (b *Backend) Project() string { return b.project }

var tables = map[state.Part]string{
	state.PartSnapshot: "plinth_snapshots", state.PartJournal: "plinth_journal",
	state.PartLock: "plinth_locks", state.PartSecrets: "plinth_secrets",
}

// Describe names the table, project and stack of a part, and the
// database (its password redacted).
func (b *Backend) Describe(stack string, part state.Part) string {
	return fmt.Sprintf("table %s, project %s, stack %s, in %s", tables[part], b.project, stack, b.shown)
}

// fail wraps a database error for people: what was being done, where,
// and never the password.
func (b *Backend) fail(what, stack string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s of stack %s of project %s in %s: %w", what, stack, b.project, b.shown, b.scrub(b.unreachable(err)))
}

func notExist(stack string, part state.Part) error {
	return fmt.Errorf("stack %s has no %s: %w", stack, part, fs.ErrNotExist)
}

// upsertStack is a common table expression that records the stack: $1
// is the project, $2 the stack, in every statement that uses it.
const upsertStack = `WITH s AS (INSERT INTO plinth_stacks (project, name) VALUES ($1, $2) ON CONFLICT (project, name) DO NOTHING) `

// ReadSnapshot reads the stack's snapshot. If the stack has written one
// that is now missing, the error matches state.ErrSnapshotLost.
func (b *Backend) ReadSnapshot(ctx context.Context, stack string) ([]byte, error) {
	if err := b.check(ctx, stack); err != nil {
		return nil, err
	}
	var data []byte
	var written bool
	err := retry(ctx, true, func() error {
		return b.pool.QueryRow(ctx, `SELECT s.data, st.snapshot_written FROM plinth_stacks st
		LEFT JOIN plinth_snapshots s ON s.project = st.project AND s.stack = st.name WHERE st.project = $1 AND st.name = $2`,
			b.project, stack).Scan(&data, &written)
	})
	switch {
	case errors.Is(err, pgx.ErrNoRows), err == nil && data == nil && !written:
		return nil, notExist(stack, state.PartSnapshot)
	case err != nil:
		return nil, b.fail("reading the snapshot", stack, err)
	case data == nil:
		return nil, fmt.Errorf("%s: the snapshot row is missing although the stack wrote one: %w", b.Describe(stack, state.PartSnapshot), state.ErrSnapshotLost)
	}
	return data, nil
}

const writeSnapshot = `WITH s AS (INSERT INTO plinth_stacks (project, name, snapshot_written) VALUES ($1, $2, true)
		ON CONFLICT (project, name) DO UPDATE SET snapshot_written = true)
	INSERT INTO plinth_snapshots (project, stack, data, written, previous, previous_written) VALUES ($1, $2, $3, now(), $3, now())
	ON CONFLICT (project, stack) DO UPDATE SET previous = plinth_snapshots.data, previous_written = plinth_snapshots.written,
		data = EXCLUDED.data, written = EXCLUDED.written`

// WriteSnapshot replaces the snapshot, keeping the one it replaces as the
// backup (the first snapshot is its own backup).
func (b *Backend) WriteSnapshot(ctx context.Context, stack string, data []byte) error {
	if err := b.check(ctx, stack); err != nil {
		return err
	}
	// Not idempotent: run twice, it would make the new snapshot its own
	// backup.
	err := retry(ctx, false, func() error {
		_, err := b.pool.Exec(ctx, writeSnapshot, b.project, stack, data)
		return err
	})
	return b.fail("writing the snapshot", stack, err)
}

// Compact replaces the snapshot and empties the journal in one
// transaction.
func (b *Backend) Compact(ctx context.Context, stack string, data []byte) error {
	if err := b.check(ctx, stack); err != nil {
		return err
	}
	m, marked := snapshotMark(data)
	l := b.lock(stack)
	if l != nil {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.mark = nil
		err := b.compact(ctx, l.conn, stack, data, m, marked)
		if err == nil && marked {
			l.mark = &m
		}
		return b.fail("compacting the state", stack, err)
	}
	return b.fail("compacting the state", stack, b.compact(ctx, b.pool, stack, data, m, marked))
}

// compact replaces the snapshot, empties the journal and, if marked, sets
// the stack's mark to the snapshot's m, in one transaction on db.
func (b *Backend) compact(ctx context.Context, db dbConn, stack string, data []byte, m rowMark, marked bool) error {
	return pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, writeSnapshot, b.project, stack, data); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM plinth_journal WHERE project = $1 AND stack = $2", b.project, stack); err != nil {
			return err
		}
		if !marked {
			return nil
		}
		return upsertMark(ctx, tx, b.project, stack, m)
	})
}

// ReadBackup returns the snapshot before the current one.
func (b *Backend) ReadBackup(ctx context.Context, stack string) ([]byte, time.Time, error) {
	if err := b.check(ctx, stack); err != nil {
		return nil, time.Time{}, err
	}
	var data []byte
	var written *time.Time
	err := retry(ctx, true, func() error {
		return b.pool.QueryRow(ctx, "SELECT previous, previous_written FROM plinth_snapshots WHERE project = $1 AND stack = $2",
			b.project, stack).Scan(&data, &written)
	})
	if errors.Is(err, pgx.ErrNoRows) || err == nil && (data == nil || written == nil) {
		return nil, time.Time{}, notExist(stack, "backup snapshot")
	}
	if err != nil {
		return nil, time.Time{}, b.fail("reading the backup snapshot", stack, err)
	}
	return data, *written, nil
}

// DescribeBackup names the backup snapshot's column, or "" if there is none.
func (b *Backend) DescribeBackup(stack string) string {
	if _, _, err := b.ReadBackup(context.Background(), stack); err != nil {
		return ""
	}
	return fmt.Sprintf("column previous of table plinth_snapshots, project %s, stack %s, in %s", b.project, stack, b.shown)
}

// URL returns the URL the backend was opened with, password and all: for
// handing to another process, never for messages (use String).
func (b *Backend) URL() string { return b.url }
