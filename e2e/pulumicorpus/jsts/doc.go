// Package jsts runs the JavaScript and TypeScript programs of the Pulumi
// program corpus (e2e/pulumicorpus/testdata/js-*, ts-*); see
// e2e/pulumicorpus.
package jsts
