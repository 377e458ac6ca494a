// Package postgres stores stacks in a PostgreSQL database, so that a team
// shares them: the state backend chosen by a postgres:// URL
// (PLINTH_BACKEND, `backend:` in plinth.yaml, or --backend).
//
// A Backend is opened for one project (Config.Project), and every row it
// reads or writes is keyed by project and stack: projects share a
// database, never a stack, and their locks are apart. Rows written
// before schema version 3, keyed by stack alone, are given to the project
// their resources' URNs name; a stack whose state names none or several
// stays unclaimed, refused to every project (UnclaimedError) until
// Backend.Claim (`plinth state claim`). See claim.go.
//
// Every part of a stack is rows, never one rewritten blob:
//
//	plinth_schema     the schema version; plinth creates and migrates the
//	                  tables itself, forward only, and refuses a database
//	                  whose schema is newer than it knows
//	plinth_stacks     one row per stack of each project
//	plinth_snapshots  the last compacted snapshot of each stack, and the
//	                  one before it as a backup
//	plinth_journal    one row per append: a group commit of the state
//	                  session is one row holding its records in order
//	                  (records), written in one transaction; rows a plinth
//	                  before schema version 5 wrote hold one record (data)
//	plinth_locks      the holder of each stack's lock: user, host, PID,
//	                  command and start time, shown to whoever is refused
//	plinth_secrets    each stack's secrets configuration
//	plinth_history    one row per operation (kind, user, host, times,
//	                  result, counts of steps); loading reads its last
//	                  rows only (state.HistoryTailReader)
//	plinth_marks      each stack's newest mark (state.Mark: lineage,
//	                  serial, sequence), moved by the statement that
//	                  appends to the journal (state.MarkStore)
//
// Compaction replaces the snapshot, empties the journal and sets the
// stack's mark to the new snapshot's in one transaction
// (state.Compactor). The mark thus never lags the journal, and lives
// apart from the rows of the state, so that an older snapshot row put
// back, with or without the journal rows of its time, is refused on
// load (state.RollbackError); a restore of plinth_marks and
// plinth_history as well, such as of the whole database, is not
// detectable. See mark.go. The lock itself is a session-level
// advisory lock held on a connection of its own for as long as the
// operation runs: when the holder dies or its network goes, the server
// ends the session and the lock goes with it. ForceUnlock (`plinth state
// unlock`) ends the server session that still holds a lock whose client
// is gone.
//
// A server restart ends every session, so the pool checks an idle
// connection before it hands it out (reach.go): it peeks at the socket,
// which costs no round trip, and pings a connection that is not quiet or
// has sat idle a second; a dead one is replaced before any statement is
// sent on it. A read, or an idempotent write, whose connection is lost
// all the same runs once more on a new one; any other write runs again
// only if nothing was sent (the journal's appends under the lock have
// their own exactly-once handling). A statement the server cannot be
// asked fails with an *UnreachableError, naming the server's host and
// port (never the password) and saying what to check.
//
// The backend stores bytes: the state package has sealed every secret
// before they arrive, as for the file backend, so the database never
// holds a plaintext secret. The connection URL may carry a password; the
// backend never prints it (Describe and errors show the URL redacted).
//
// Its neighbours: the state package above it, whose storage interfaces it
// implements, and the CLI, which opens it from a URL. Tests start a
// throwaway server with the pgtest package.
package postgres
