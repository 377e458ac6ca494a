// Package engine turns resource registrations into provider calls and
// records what exists. It implements the operations a user runs (preview,
// update, refresh, destroy, import) by the custom resource lifecycle of the
// Pulumi implementer's guide: Check, Diff, then same, create, update or
// replace for each registration; deletes of what the program no longer
// registers; provider resources configured once and shared; component
// resources; resource options; targets; cancellation.
//
// Its shape is a step generator and a step executor. The generator
// (generate.go, decide.go, replace.go, deletes.go, deletedwith.go,
// alias.go, component.go, providerstep.go, read.go) turns a registration, and after the program each
// resource not registered, into a step value (steps.go, stepsworld.go,
// stepsread.go). The executor (execute.go, journal.go, outcome.go,
// guard.go) runs steps: it brackets each provider call that may change the
// world with the journal's begin and end entries (and a create or update
// with the registration's hooks, hooks.go), applies the outcome to
// the engine's view of the state (records.go, a state.Live) and emits the
// events. Whether anything changes is decided once, by the executor's
// effects (effects.go): applying, or planning for a preview. The
// operations (update.go, destroy.go, refresh.go, importop.go) choose what
// becomes a step; providers.go holds the provider instances; plans.go
// carries a preview's Diff responses and provider plans to the update
// that follows it in the same process (Options.Plans), for the resources
// whose inputs and state did not change in between.
//
// Its neighbours: a Program (the YAML evaluator in internal/program/yaml, or a
// fake in tests) registers resources through a Monitor; providers come from
// a ProviderSource (internal/registry and the adapters under internal/provider);
// every step is written to a Journal (internal/state) before and after its
// provider call; progress goes to an Events callback (internal/display).
//
// It does not parse programs, render output, store bytes or keep its own
// copy of the state's replay rules.
package engine
