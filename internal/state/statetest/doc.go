// Package statetest checks state backends and helps test their users.
//
// Run is the conformance suite every backend must pass (the file backend's
// tests run it, and so will postgres's): snapshot round trip and replace,
// journal append, read, truncate and torn tail, lock exclusivity and holder
// information, stack listing and removal, secrets configuration, and a
// session opened over the backend.
//
// MemoryBackend is a complete backend in memory with counters and fault
// hooks, for tests of the state session and of the engine and CLI above
// it. Nothing here is used outside tests.
package statetest
