package lock

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

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

// HashDirSums is HashDir with each file's SHA-256 (lower-case hex) asked
// of sum first, so that a caller keeping the sums of unchanged files (the
// schema cache's, internal/plugin/schemacache) does not read a large
// binary again; a file sum answers "" for is read and hashed here.
func HashDirSums(dir string, sum func(path string) string) (string, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("hashing provider package %s: %w", dir, err)
	}
	files, err := dirhash.DirFiles(real, "")
	if err != nil {
		return "", fmt.Errorf("hashing provider package %s: %w", dir, err)
	}
	sort.Strings(files)
	manifest := sha256.New()
	for _, name := range files {
		if strings.Contains(name, "\n") {
			return "", fmt.Errorf("hashing provider package %s: a file name holds a newline: %q", dir, name)
		}
		path := filepath.Join(real, filepath.FromSlash(name))
		s := sum(path)
		if s == "" {
			if s, err = FileSum(path); err != nil {
				return "", fmt.Errorf("hashing provider package %s: %w", dir, err)
			}
		}
		fmt.Fprintf(manifest, "%s  %s\n", s, name)
	}
	return "h1:" + base64.StdEncoding.EncodeToString(manifest.Sum(nil)), nil
}

// FileSum is the SHA-256 of a file's contents in lower-case hex (the
// "zh:" form of a zip's hash, and each line of an "h1:" manifest).
func FileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
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
