// Package pulumicli holds the end-to-end tests of plinth's Pulumi state
// format against the real `pulumi` CLI: `plinth state export --format
// pulumi` must be a deployment `pulumi stack import` accepts, and what
// `pulumi stack export` writes back must adopt (`plinth state adopt
// --format pulumi`) into a stack that a preview finds unchanged, with the
// same resources and secret values. And a Pulumi program's stack config:
// what `pulumi config set --secret` (and --path --secret) writes to
// Pulumi.<stack>.yaml must read decrypted in plinth and reach the program
// plinth runs, and what `plinth config set --secret` writes must read with
// `pulumi config get`. Everything runs offline, on Pulumi's file backend
// in a temporary directory.
//
// The CLI is $PLINTH_PULUMI_CLI, else `pulumi` on PATH, else built once
// per machine from the Go module proxy (github.com/pulumi/pulumi/pkg/v3
// at modbuild.PulumiCLIVersion, from the module in testdata/climodule) into
// <user cache dir>/plinth/pulumi-cli/<version>, under a file lock so that
// parallel test binaries build it once. Where it can be neither found
// nor built, the tests skip and say how to provide it; -short skips them.
//
// The package has no code of its own: plinth runs in process through
// internal/cli/clitest; internal/state/pulumistate and the CLI's config
// commands are what is under test, and pulumistate's unit tests check the
// same format against apitype. The tests
// are for Unix (the build lock is flock).
package pulumicli
