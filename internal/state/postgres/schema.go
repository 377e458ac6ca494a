package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// migrations create and change the schema, forward only: migrations[i]
// takes the schema from version i to i+1. Never edit one that has been
// released; add another.
var migrations = []string{
	// 1: stacks, snapshots, journal, locks, secrets.
	`CREATE TABLE plinth_stacks (
		name text PRIMARY KEY,
		created timestamptz NOT NULL DEFAULT now(),
		snapshot_written boolean NOT NULL DEFAULT false
	);
	CREATE TABLE plinth_snapshots (
		stack text PRIMARY KEY,
		data bytea NOT NULL,
		written timestamptz NOT NULL,
		previous bytea,
		previous_written timestamptz
	);
	CREATE TABLE plinth_journal (
		id bigserial PRIMARY KEY,
		stack text NOT NULL,
		data bytea NOT NULL
	);
	CREATE INDEX plinth_journal_stack ON plinth_journal (stack, id);
	CREATE TABLE plinth_locks (
		stack text PRIMARY KEY,
		token text NOT NULL,
		pid integer NOT NULL,
		host text NOT NULL,
		username text NOT NULL,
		command text NOT NULL,
		started timestamptz NOT NULL,
		process_start bigint NOT NULL,
		backend_pid integer NOT NULL
	);
	CREATE TABLE plinth_secrets (
		stack text PRIMARY KEY,
		data bytea NOT NULL
	);`,
	// 2: update history.
	`CREATE TABLE plinth_history (
		id bigserial PRIMARY KEY,
		stack text NOT NULL,
		operation text NOT NULL,
		data jsonb NOT NULL
	);
	CREATE INDEX plinth_history_stack ON plinth_history (stack, id);`,
}

// SchemaVersion is the schema version this plinth writes.
var SchemaVersion = len(migrations)

// migrateLock keeps two plinths from migrating one database at once
// (an advisory lock key: "plinth schema").
const migrateLock = 0x706c6e7473636d61

// ErrSchemaTooNew is matched by the error of a database whose schema a
// newer plinth wrote.
var ErrSchemaTooNew = errors.New("the database's plinth schema is newer than this plinth")

// migrate brings the schema to version target, creating it in an empty
// database, in one transaction.
func migrate(ctx context.Context, conn *pgx.Conn, target int) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrateLock)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "CREATE TABLE IF NOT EXISTS plinth_schema (version integer NOT NULL)"); err != nil {
			return err
		}
		var v int
		err := tx.QueryRow(ctx, "SELECT version FROM plinth_schema").Scan(&v)
		if errors.Is(err, pgx.ErrNoRows) {
			_, err = tx.Exec(ctx, "INSERT INTO plinth_schema (version) VALUES (0)")
		}
		if err != nil {
			return err
		}
		if v > len(migrations) {
			return fmt.Errorf("%w: the database holds schema version %d, and this plinth knows versions up to %d. Upgrade plinth to the version your team uses", ErrSchemaTooNew, v, len(migrations))
		}
		for ; v < target; v++ {
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				return fmt.Errorf("migrating the plinth schema to version %d: %w", v+1, err)
			}
		}
		_, err = tx.Exec(ctx, "UPDATE plinth_schema SET version = $1 WHERE version < $1", v)
		return err
	})
}
