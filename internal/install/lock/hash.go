package lock

import (
	"fmt"
	"path/filepath"

	"golang.org/x/mod/sumdb/dirhash"
)

// HashDir is the "h1:" hash of an unpacked provider package: Go's
// dirhash Hash1 over every file under dir, named relative to it with no
// prefix, which is how Terraform defines it.
func HashDir(dir string) (string, error) {
	// A package linked from a plugin cache is a symbolic link, which
	// dirhash would not walk into.
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("hashing provider package %s: %w", dir, err)
	}
	h, err := dirhash.HashDir(real, "", dirhash.Hash1)
	if err != nil {
		return "", fmt.Errorf("hashing provider package %s: %w", dir, err)
	}
	return h, nil
}

// HashZip is the "h1:" hash of a provider zip's contents: the same value
// HashDir gives once it is unpacked.
func HashZip(path string) (string, error) {
	h, err := dirhash.HashZip(path, dirhash.Hash1)
	if err != nil {
		return "", fmt.Errorf("hashing provider package %s: %w", path, err)
	}
	return h, nil
}

// ZipHash is the "zh:" entry for a zip whose SHA-256 is hexSum (as
// SHA256SUMS lists it, lower-case hex).
func ZipHash(hexSum string) string { return "zh:" + hexSum }
