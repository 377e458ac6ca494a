// Package lock reads and writes Terraform's dependency lock file,
// .terraform.lock.hcl, byte for byte as Terraform 1.11 writes it, so that
// terraform and plinth can share one repository: one provider block per
// provider, sorted by address, with the version chosen, the constraints it
// was chosen under and the hashes any package of it must match.
//
// It also computes those hashes: "h1:" (Go's dirhash over an unpacked
// package, which is what Terraform checks an installed directory against)
// and "zh:" (the SHA-256 of a release zip, as a registry's SHA256SUMS lists
// it).
//
// It knows nothing of registries or of how packages are chosen; that is
// internal/install's, its only user. Module entries of the lock file (which
// Terraform does not write either) are left out.
package lock
