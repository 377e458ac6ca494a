// Package pulumigo holds the end-to-end tests of Pulumi programs written
// in Go (runtime: go, internal/langhost/golang): programs written for
// these tests against github.com/pulumi/pulumi/sdk/v3/go/pulumi, with a
// small hand-written SDK for plinth's built-in provider
// (testdata/plinth), run through the real command line in process
// (internal/cli/clitest): config plain and secret, outputs, a component
// resource, dependencies, a preview that finds nothing, edits with the
// steps they take, destroy (lifecycle_test.go); a prebuilt binary named
// by the runtime option binary; a program that does not build, one that
// panics and one whose body returns an error, each leaving the state as
// it was, and one that never exits, ended by Ctrl-C (bad_test.go); a
// program's process dying with a plinth killed by SIGKILL (kill_test.go,
// plinth built as a binary). bench_test.go compares plinth's CPU for 2,000
// resources from a Go program and from YAML.
//
// The programs are one Go module, testdata/go.mod, which requires the
// Pulumi SDK at the version the project's own go.mod requires
// (TestProgramsUseTheProjectsSDK), so it builds from the module cache
// the project's build fills, or from the Go module proxy. The package
// has no code of its own.
package pulumigo
