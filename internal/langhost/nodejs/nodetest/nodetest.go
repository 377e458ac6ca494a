// Package nodetest gives tests the node_modules of a Pulumi Node.js
// program: its package.json and package-lock.json installed with npm ci
// from the npm registry once, cached under the OS temp dir keyed by the
// two files' contents, so later runs cost nothing. A test without node
// and npm, or without the registry, is skipped, saying why.
//
// It serves the tests of examples/pulumi-dynamic (a program with a
// dynamic provider, which plinth hosts through internal/langhost/nodejs)
// and any other test that runs a Pulumi program, such as a crash harness.
// It does not run programs: the tests do, through the CLI.
package nodetest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// lockFiles are what npm ci installs from, and what the cache is keyed by.
var lockFiles = []string{"package.json", "package-lock.json"}

// Modules returns a node_modules directory holding what the program in
// dir names in its package.json and package-lock.json.
func Modules(t testing.TB, dir string) string {
	t.Helper()
	npm := requireNode(t)
	cache := filepath.Join(os.TempDir(), "plinth-npm-"+lockDigest(t, dir))
	modules := filepath.Join(cache, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "@pulumi", "pulumi", "package.json")); err == nil {
		return modules
	}
	stage, err := os.MkdirTemp(os.TempDir(), "plinth-npm-stage-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(stage)
	for _, f := range lockFiles {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err == nil {
			err = os.WriteFile(filepath.Join(stage, f), data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error")
	cmd.Dir = stage
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("skipping: npm ci of %s failed (no network to the npm registry?): %v\n%s", dir, err, out)
	}
	// Another test process may have won the race; either copy will do.
	if err := os.Rename(stage, cache); err != nil && !errors.Is(err, fs.ErrExist) {
		if _, statErr := os.Stat(modules); statErr != nil {
			t.Fatalf("caching node_modules in %s: %v", cache, err)
		}
	}
	return modules
}

// Link makes modules the node_modules of the program in dir.
func Link(t testing.TB, dir, modules string) {
	t.Helper()
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
}

// requireNode returns npm's path, skipping the test without npm or node.
func requireNode(t testing.TB) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err == nil {
		_, err = exec.LookPath("node")
	}
	if err != nil {
		t.Skip("skipping: running a Pulumi Node.js program needs node and npm on PATH (install Node.js 18 or later)")
	}
	return npm
}

// lockDigest is a short digest of the program's lock files.
func lockDigest(t testing.TB, dir string) string {
	t.Helper()
	h := sha256.New()
	for _, f := range lockFiles {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
