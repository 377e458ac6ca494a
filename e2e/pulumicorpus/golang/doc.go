// Package golang runs the Go programs of the Pulumi program corpus
// (e2e/pulumicorpus/testdata/go-*); see e2e/pulumicorpus.
package golang
