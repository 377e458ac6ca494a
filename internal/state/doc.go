// Package state records what exists: the snapshot of a stack's resources, the
// journal of steps that changes it, and the integrity rules both must keep.
//
// A snapshot lists resources in dependency order with their inputs, outputs,
// options and relations, plus the stack's outputs and any pending operations
// (steps that began but never reported an end, so their effect on the world
// is uncertain). The engine writes a journal entry before each provider call
// and another after it; Live applies entries to an in-memory state, and the
// same rules replay a journal onto the last snapshot after a crash. At the end
// of an operation the live state is compacted into a new snapshot.
//
// A state can be valid and still old (an older snapshot copied back, a
// journal cut at a record boundary, its files deleted). Each snapshot
// carries a lineage and a serial, sessions record the Mark they reach in
// the update history and after every journal append (mark.go), and every
// load refuses a state behind the newest recorded mark (RollbackError);
// AcceptRollback and RestoreBackup are the ways forward.
//
// Storage is split into small consumer-side interfaces (see store.go);
// backends live in sub-packages (file, and later postgres) and deal only in
// bytes. Secrets are sealed by a Crypter from the secrets package before
// anything reaches a backend.
//
// This package does not call providers and does not decide what to change;
// that is the engine's job.
package state
