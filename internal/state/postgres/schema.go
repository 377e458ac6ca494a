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
	// 3: every row keyed by project and stack. Rows written before have
	// the project '' (unclaimed) until adopt or Claim gives them one.
	`ALTER TABLE plinth_stacks ADD COLUMN project text NOT NULL DEFAULT '';
	ALTER TABLE plinth_stacks DROP CONSTRAINT plinth_stacks_pkey, ADD PRIMARY KEY (project, name);
	ALTER TABLE plinth_stacks ALTER COLUMN project DROP DEFAULT;
	ALTER TABLE plinth_snapshots ADD COLUMN project text NOT NULL DEFAULT '';
	ALTER TABLE plinth_snapshots DROP CONSTRAINT plinth_snapshots_pkey, ADD PRIMARY KEY (project, stack);
	ALTER TABLE plinth_snapshots ALTER COLUMN project DROP DEFAULT;
	ALTER TABLE plinth_locks ADD COLUMN project text NOT NULL DEFAULT '';
	ALTER TABLE plinth_locks DROP CONSTRAINT plinth_locks_pkey, ADD PRIMARY KEY (project, stack);
	ALTER TABLE plinth_locks ALTER COLUMN project DROP DEFAULT;
	ALTER TABLE plinth_secrets ADD COLUMN project text NOT NULL DEFAULT '';
	ALTER TABLE plinth_secrets DROP CONSTRAINT plinth_secrets_pkey, ADD PRIMARY KEY (project, stack);
	ALTER TABLE plinth_secrets ALTER COLUMN project DROP DEFAULT;
	ALTER TABLE plinth_journal ADD COLUMN project text NOT NULL DEFAULT '';
	ALTER TABLE plinth_journal ALTER COLUMN project DROP DEFAULT;
	DROP INDEX plinth_journal_stack;
	CREATE INDEX plinth_journal_stack ON plinth_journal (project, stack, id);
	ALTER TABLE plinth_history ADD COLUMN project text NOT NULL DEFAULT '';
	ALTER TABLE plinth_history ALTER COLUMN project DROP DEFAULT;
	DROP INDEX plinth_history_stack;
	CREATE INDEX plinth_history_stack ON plinth_history (project, stack, id);`,
	// 4: each stack's newest mark (state.Mark), written with every
	// journal append; begun from the last mark the history records.
	`CREATE TABLE plinth_marks (
		project text NOT NULL,
		stack text NOT NULL,
		lineage text NOT NULL,
		serial bigint NOT NULL,
		seq bigint NOT NULL,
		written timestamptz NOT NULL,
		PRIMARY KEY (project, stack)
	);
	INSERT INTO plinth_marks (project, stack, lineage, serial, seq, written)
	SELECT DISTINCT ON (project, stack) project, stack, coalesce(data->'state'->>'lineage', ''),
		CASE WHEN jsonb_typeof(data->'state'->'serial') = 'number' THEN (data->'state'->>'serial')::numeric::bigint ELSE 0 END,
		(data->'state'->>'seq')::numeric::bigint, now()
	FROM plinth_history WHERE jsonb_typeof(data->'state'->'seq') = 'number'
	ORDER BY project, stack, id DESC;`,
	// 5: a journal row holds one append's records (records), so that an
	// append writes one row, one index entry and a compressed value
	// rather than a row per record; rows written before hold one record
	// in data. New values of records and of the snapshots are compressed
	// with lz4 where the server has it (PostgreSQL 14 and later, built
	// with lz4), faster than the default pglz; elsewhere the statement
	// fails inside its own block and the default stays.
	`ALTER TABLE plinth_journal ALTER COLUMN data DROP NOT NULL, ADD COLUMN records bytea[],
		ADD CONSTRAINT plinth_journal_one_form CHECK ((data IS NULL) <> (records IS NULL));
	DO $$ BEGIN
		EXECUTE 'ALTER TABLE plinth_journal ALTER COLUMN records SET COMPRESSION lz4';
		EXECUTE 'ALTER TABLE plinth_snapshots ALTER COLUMN data SET COMPRESSION lz4, ALTER COLUMN previous SET COMPRESSION lz4';
	EXCEPTION WHEN OTHERS THEN NULL;
	END $$;`,
}

// marksVersion is the first schema version with plinth_marks.
const marksVersion = 4

// projectsVersion is the first schema version whose rows are keyed by
// project.
const projectsVersion = 3

// SchemaVersion is the schema version this plinth writes.
var SchemaVersion = len(migrations)

// migrateLock keeps two plinths from migrating one database at once
// (an advisory lock key: "plinth schema").
const migrateLock = 0x706c6e7473636d61

// ErrSchemaTooNew is matched by the error of a database whose schema a
// newer plinth wrote.
var ErrSchemaTooNew = errors.New("the database's plinth schema is newer than this plinth")

// migrate brings the schema to version target, creating it in an empty
// database, and then gives the rows an older plinth wrote to the project
// their resources name (adopt), in one transaction.
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
			if v > 0 && v+1 == projectsVersion {
				if err := noOldHolders(ctx, tx); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				return fmt.Errorf("migrating the plinth schema to version %d: %w", v+1, err)
			}
		}
		if _, err := tx.Exec(ctx, "UPDATE plinth_schema SET version = $1 WHERE version < $1", v); err != nil {
			return err
		}
		if v < projectsVersion {
			return nil
		}
		return adopt(ctx, tx, v)
	})
}

// ErrInUse is matched by the error of a migration refused because an
// older plinth holds a stack's lock in the database.
var ErrInUse = errors.New("the database is in use by an older plinth")

// noOldHolders refuses to key the rows by project while an older plinth
// holds a stack's lock: its lock key would no longer keep a newer plinth
// out, and its next write would fail half-way through its operation.
func noOldHolders(ctx context.Context, tx pgx.Tx) error {
	var n int
	err := tx.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1::int::oid
		AND objsubid = 2 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`, lockSpace).Scan(&n)
	if err == nil && n > 0 {
		err = fmt.Errorf("%w (stack locks held: %d), and its tables cannot be migrated to keep each project's stacks apart while it runs. Let those commands finish, then run plinth again", ErrInUse, n)
	}
	return err
}
