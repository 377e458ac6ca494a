// Package sdkpulumi holds the end-to-end tests of a provider written with
// plinth's SDK (examples/provider, served by sdk/provider/pulumiserve)
// under the real pulumi CLI, with a Pulumi YAML program run by Pulumi's
// own YAML language host: create, a preview that finds nothing to do, an
// update in place, a replacement, destroy, stack outputs, a write-only
// input kept out of the state's plaintext, and validation failures that
// name the property path.
//
// TestMain builds cmd/pulumi-resource-example into a temporary directory
// that the tests put on PATH, where the pulumi CLI and the language host
// find provider plugins. pulumi-language-yaml comes from
// internal/langhost/runtime/yamltest (built once from the Go module
// proxy, cached); the pulumi CLI is $PLINTH_PULUMI_CLI, `pulumi` on PATH,
// or the one e2e/pulumicli builds into the user cache. Tests skip, saying
// why, when either is missing, and with -short. Everything runs offline on
// Pulumi's file backend in a temporary directory. The package has no code
// of its own. Unix only (the host build's lock).
package sdkpulumi
