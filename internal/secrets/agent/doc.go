// Package agent keeps the keys of passphrase-protected stacks in memory
// between commands, in the manner of ssh-agent, so that a user's second
// command need not derive its key with argon2id again.
//
// The agent is a process of its own (the plinth binary run with Command),
// started by the first command that derives and checks a key, fully
// detached, and serving one user on a Unix socket in a directory only
// that user can enter (Dir). A command asks it for a key with the
// stack's salt, cost parameters and passphrase; it answers only when
// all three match what the key was handed over with, comparing the
// passphrase as an HMAC under a secret it made at start and keeps in
// memory only, and drops the entry when the passphrase does not match,
// so the socket is no faster oracle for guessing than one try per
// derivation. Nothing is written to disk but the socket and a lock file.
// An entry expires TTL after its last use, and the agent exits when it
// holds none.
//
// Every failure of the agent is a miss for the caller, who then derives
// the key as if there were no agent; the caller still checks every key
// the agent returns against the stack's check value (internal/secrets).
// The package does not decide whether a command uses the agent (the
// command line does, from PLINTH_KEY_AGENT: FromEnv) and knows nothing
// of stacks or ciphers beyond the secrets package's KDFParams.
package agent
