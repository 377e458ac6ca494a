// Package pulumiyaml holds the end-to-end tests of Pulumi YAML programs
// (Pulumi.yaml with runtime: yaml) run by plinth through Pulumi's own
// YAML language host, pulumi-language-yaml, which plinth starts and drives
// over the LanguageRuntime protocol (internal/langhost/runtime) against
// its resource monitor. The programs, written for these tests, use the
// built-in provider served as a Pulumi plugin (cmd/pulumi-resource-plinth,
// built by TestMain), which the language host also starts itself to read
// the provider's schema: plinth puts its plugin directories first on the
// host's PATH.
//
// lifecycle_test.go runs up, a no-change preview, edits with the steps
// they must take, protect and destroy, and a project whose main names a
// directory; options_test.go resource options, an explicit provider, get,
// assets and functions; stackref_test.go two stacks reading each other's
// outputs; secrets_test.go secret config,
// fn::secret and what the state and outputs keep secret; failures_test.go
// a missing host, a missing provider plugin (stopped before the host
// would download it), a host that exits, hangs or crashes and a broken
// program, each exiting 1 with the state unchanged; interrupt_test.go Ctrl-C while the program
// waits on a resource; pulumi_test.go runs the same program under
// the real pulumi CLI with the same host and compares outputs and files,
// and logs how long each took.
//
// pulumi-language-yaml comes from internal/langhost/runtime/yamltest
// (built once from the Go module proxy, cached); the pulumi CLI is
// $PLINTH_PULUMI_CLI, `pulumi` on PATH, or the one e2e/pulumicli built
// into the user cache. Tests skip, saying why, when either is missing, and
// with -short. The package has no code of its own; plinth runs in process
// through internal/cli/clitest. Unix only (the host build's lock).
package pulumiyaml
