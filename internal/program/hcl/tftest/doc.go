// Package tftest runs Terraform's test files (*.tftest.hcl) against a
// configuration, as terraform test does: each file's run blocks in order,
// planning or applying the configuration (or the local module a run's
// module block names) with the file's and the run's variables, state
// carried from run to run in memory, assertions and expect_failures
// checked against the run's result, and everything destroyed at the end,
// newest state first. It writes terraform's report (in progress, each
// run's pass, fail or skip, tearing down, the file's result, the totals).
//
// mock_provider and the override blocks are parsed here into Mocks; the
// caller's provider source fakes the mocked providers and overridden
// resources, the configuration's evaluation (hcl.Overrides) the
// overridden data sources and module calls. plan_options' mode =
// refresh-only reads the state back and evaluates the configuration
// with every resource left alone. It leaves out provider blocks in test
// files, a mock provider's source, a run's providers and
// state_key, and modules from registries: Parse refuses each with a
// diagnostic at its file:line:col.
//
// Neighbours: internal/program/hcl loads and evaluates the configuration
// (its Scoped keeps the root module's values for the assertions);
// internal/engine plans, applies and destroys, with the providers the
// caller (internal/cli's `plinth test`) gives in engine.Options;
// internal/state's MemoryJournal holds each file's throwaway state.
package tftest
