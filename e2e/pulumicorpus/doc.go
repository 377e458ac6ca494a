// Package pulumicorpus runs a corpus of Pulumi programs written for this
// project (testdata/<lang>-<name>/) under plinth and compares what plinth does with
// what the real pulumi CLI does: the step counts of the first up and of
// an edit, the stack outputs, a clean second preview, the stack moved
// both ways between the two tools (plinth's export imported by pulumi,
// pulumi's export adopted by plinth, each followed by a preview that
// finds nothing to change) and a destroy that leaves nothing.
//
// Each program directory holds the program as a Pulumi user writes it
// (Pulumi.yaml and, for config, Pulumi.dev.yaml), edit/ (files copied
// over the program for the edit step), optionally base/ (a program of the
// same project run first as stack base in every backend, for a
// StackReference), and expect.json: what the up and the edit must do, in
// pulumi's counts and outputs ("<any>" matches any value), and checks
// skipped with their reasons. YAML programs are also run by `pulumi up`
// at test time, with the same expectations (checked live); the stack
// pulumi made is compared with plinth's (internal/corpus/compare.go) and adopted by
// plinth. JavaScript, TypeScript and Go programs are compared with
// recordings made by `go test ./e2e/pulumicorpus/jsts -run 'TestCorpus/js-'
// -record` (or ./e2e/pulumicorpus/golang) with PLINTH_CORPUS_HOSTS naming
// a directory of locally built language hosts.
//
// The harness is internal/corpus; this package runs the YAML programs,
// ./jsts the JavaScript and TypeScript ones and ./golang the Go ones, each
// its own test binary so that each stays well inside go test's ten-minute
// limit.
//
// Languages plug in through a table (internal/corpus/language.go): how to ready a copy
// of a program, what to put on PATH, whether pulumi can run it in CI.
// Each language registers itself from its own file (internal/corpus/lang_yaml.go).
//
// The programs' resources come from two provider plugins built into one
// directory at TestMain, on PLINTH_PLUGIN_PATH for plinth and on PATH for
// pulumi: pulumi-resource-plinth (plinth's built-in providers) and
// e2e/component's pulumi-resource-comp (comp:index:Site, a remote
// component its provider builds with Construct: yaml-remote, js-remote).
//
// pulumi-language-yaml comes from internal/langhost/runtime/yamltest; the
// pulumi CLI from modbuild.PulumiCLI ($PLINTH_PULUMI_CLI, `pulumi` on
// PATH, or built once into the user cache from e2e/pulumicli's module). Tests skip, saying why, when either is
// missing, and with -short. Plinth runs in process (internal/cli/clitest).
package pulumicorpus
