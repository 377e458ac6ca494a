// Package corpus is the harness of the Pulumi program corpus
// (e2e/pulumicorpus): the test packages e2e/pulumicorpus (YAML),
// e2e/pulumicorpus/jsts and e2e/pulumicorpus/golang call Main from their
// TestMain and Run from their TestCorpus, each for its languages.
package corpus
