// Package file stores stacks in a directory on the local disk: the state
// backend for a project's `.plinth` directory, and the reference for what
// the state package's storage interfaces mean.
//
// Each stack lives in root/stacks/<stack>/:
//
//	snapshot.json      the last compacted snapshot, replaced atomically
//	                   (written to a temporary file, synced, renamed, and
//	                   the directory synced)
//	snapshot.json.bak  the snapshot before that, kept as a backup: a copy,
//	                   never a hard link, so damage to one is not damage
//	                   to both
//	stack.json         a marker written with the first snapshot: while it
//	                   exists a missing snapshot.json is an error
//	journal            records appended since, each framed with its length
//	                   and a CRC-32C, so a record torn by a kill mid-write
//	                   is recognised and dropped
//	lock               present while a process holds the stack: its PID,
//	                   host, start time and command
//	secrets.json       the secrets configuration (mode 0600: it may hold
//	                   the key)
//	history.jsonl      the update history, one JSON record a line; loads
//	                   read only its last 16 KiB for the newest mark
//	mark.json          the mark (lineage, serial, sequence) the state
//	                   last reached, rewritten without a sync after every
//	                   journal append: with the history it outlives a
//	                   rollback of the files above
//
// The backend deals only in bytes; the state package encodes snapshots and
// journal entries, and the secrets package the secrets configuration. It
// does not coordinate processes on different hosts sharing a network
// file system beyond what an exclusive create gives.
package file
