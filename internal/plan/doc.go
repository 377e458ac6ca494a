// Package plan is the saved plan of `plinth preview --save-plan FILE` and
// `plinth up --plan FILE`: the steps a preview found, each with a digest
// of what it will send to its provider, and what the plan was made
// against (the stack, the version of its state, a digest of the program
// and its stack config, the plinth version). Up checks all of that before
// it starts, and each step against the plan before the step starts.
//
// Nothing in a plan file is plaintext that the program or the state holds:
// inputs, IDs and program files are digests keyed by a random key that
// the stack's secrets provider seals, and the whole file carries a keyed
// MAC, so an edited file is refused and a digest cannot be tested against
// guessed values without the stack's key.
//
// Its neighbours: the engine asks it about steps through
// engine.Options.CheckStep; the command line (internal/cli) writes and
// reads the file; internal/state gives the state version. It does not run
// anything itself.
package plan
