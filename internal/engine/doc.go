// Package engine turns resource registrations into provider calls and
// records what exists. It implements the operations a user runs (preview,
// update, refresh, destroy, import) by the custom resource lifecycle of the
// Pulumi implementer's guide: Check, Diff, then same, create, update or
// replace for each registration; deletes of what the program no longer
// registers; provider resources configured once and shared; component
// resources; resource options; targets; cancellation.
//
// Its neighbours: a Program (the YAML evaluator in internal/program, or a
// fake in tests) registers resources through a Monitor; providers come from
// a ProviderSource (internal/registry and the adapters under internal/provider);
// every step is written to a Journal (internal/state) before and after its
// provider call; progress goes to an Events callback (internal/display).
//
// It does not parse programs, render output or store bytes.
package engine
