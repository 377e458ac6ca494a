// Package tflang runs Terraform configurations (testdata/compare/*)
// through plinth's command line with real providers (random, local, time,
// tls, built from the module proxy by internal/tfproviders) and, where
// terraform is on PATH, through terraform too, and checks that every
// output not derived from randomness agrees; that a second preview finds
// nothing to do; and that destroy leaves nothing. testdata/bad/* are
// broken configurations: each must exit 1 with a diagnostic naming
// file:line:col and leave the state as it was.
package tflang
