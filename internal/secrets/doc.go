// Package secrets keeps secret values encrypted at rest. A Crypter seals
// each secret with AES-256-GCM under a per-stack key and a fresh random
// nonce; the state codec (internal/state) calls it for every secret value
// it stores, so no secret reaches a snapshot or journal in plaintext.
//
// The key comes from one of two places. If PLINTH_PASSPHRASE is set when a
// stack's secrets are first configured, the key is derived from it with
// argon2id and a random per-stack salt, and only the salt, the cost
// parameters and a small check value are stored: the same passphrase is
// needed ever after, and a wrong one is refused before anything changes.
// Deriving costs about 0.2 s of CPU, so with Options.Background Open
// returns at once and the key is derived in a goroutine: Seal, Open and
// Verify wait for it, and fail with the wrong-passphrase error as Open
// would have. A new stack's key is made in the background too: its salt
// is chosen, and its check value sealed and the configuration stored
// once the key is derived, before the Crypter (Fresh) is ready, so
// nothing is sealed with a key whose check value is not stored. No
// cheaper check of the passphrase is stored, and no key
// is written anywhere: either would let a stolen file be attacked faster
// than argon2id allows. A KeyCache (Options.Keys: the key agent of
// internal/secrets/agent, a process that holds keys in memory) may
// spare a later command the derivation; it answers only to the same
// passphrase, and its key is checked like a derived one.
// Otherwise a random 32-byte key is generated and stored beside the stack
// (the file backend writes it with mode 0600), and Open returns a one-time
// warning for the caller to show.
//
// The configuration is stored as bytes through a ConfigStore, which every
// state backend implements; this package does not know where they go. A
// new stack's configuration is made before the stack is locked, so two
// commands may make one each: it is stored only if the stack has none
// (CreateSecretsConfig), and the command that finds one stored opens
// that one instead of its own, so both seal with one key. It
// does not decide which values are secret (the value model's secret marks
// do) and does not mask secrets in output (internal/display does).
package secrets
