// Package pulumi holds the end-to-end tests of the Pulumi-protocol plugin
// path: the same plinth programs run through the real command line
// (internal/cli, in process through clitest) twice, once with the built-in
// provider in process and once with cmd/pulumi-resource-plinth, built by
// the tests, found on PLINTH_PLUGIN_PATH and driven out of process over
// pulumirpc. The two runs must print the same changes, give the same
// outputs and leave equivalent state.
//
// The tests cover create, update, replace, refresh after drift and
// destroy, with no plugin process left running after any command
// (lifecycle_test.go; transcript_test.go normalises what legitimately
// differs between runs, procs_test.go finds plugin processes), import
// (import_test.go), Ctrl-C during a slow create (interrupt_test.go),
// choosing a provider by version constraint and the error when none fits
// (version_test.go), and secrets and unknowns crossing the plugin boundary
// (secrets_test.go). bench_test.go measures 2,000 resources through the
// plugin: an up, then a no-change preview.
//
// The package has no code of its own. It leans on internal/cli/clitest to
// run commands, on internal/plugin for discovery and on
// internal/provider/pulumirpc and sdk/provider/pulumiserve for the wire;
// the Terraform plugin path has its own end-to-end package. Which binary
// served a resource is learnt from a plinth:exec:Command that reads
// /proc/$PPID/exe, so these tests run on Linux only.
package pulumi
