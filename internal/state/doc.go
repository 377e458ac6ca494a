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
// Storage is split into small consumer-side interfaces (see store.go);
// backends live in sub-packages (file, and later postgres) and deal only in
// bytes. Secrets are sealed by a Crypter from the secrets package before
// anything reaches a backend.
//
// This package does not call providers and does not decide what to change;
// that is the engine's job.
package state
