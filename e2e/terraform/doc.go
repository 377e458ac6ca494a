// Package terraform holds end-to-end tests of real Terraform providers
// (random, local, time and tls, built from the Go module proxy by
// internal/tfproviders) driven through plinth YAML programs and the real
// command line, in process (internal/cli/clitest), as a user would: create,
// update, replace, drift and refresh, import, data sources, destroy,
// secrets at rest and in output, agreement with the terraform CLI on the
// same provider binaries, failures (missing provider, unsatisfiable
// version, crash, invalid configuration, inconsistent result), and that no
// provider process outlives a command (read from /proc, so Linux only).
//
// It has no code outside its tests. The fault tests serve small fake
// providers from the test binary itself: linked into the plugin directory
// as terraform-provider-<mode>_v1.0.0, it serves the fake named by its file
// name when go-plugin starts it.
//
// What it leaves out: the adapter's own protocol details (tested in
// internal/provider/tfplugin), the engine's lifecycle branches (tested
// with fakes in internal/engine) and output formatting for its own sake
// (internal/cli's golden tests). Real providers are not built in -short
// mode, and the tests that need them skip.
//
// Neighbours: internal/cli/clitest (runs commands), internal/tfproviders
// (builds and caches the providers), internal/provider/tfplugin (whose
// handshake the fakes answer) and sdk/tfplugin5 (their wire types).
package terraform
