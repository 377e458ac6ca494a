package examples_test

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

// isPulumiExample reports whether an example directory is a Pulumi
// program (tested by TestPulumiNodejs, not TestExamples).
func isPulumiExample(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "Pulumi.yaml"))
	return err == nil
}

// npmModules returns a node_modules directory holding what the example's
// package.json and package-lock.json name, installed with npm ci from the
// npm registry once and cached under the OS temp dir, keyed by the two
// files' contents, so that later runs cost nothing. Without npm and node
// the test is skipped.
func npmModules(t testing.TB, example string) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err == nil {
		_, err = exec.LookPath("node")
	}
	if err != nil {
		t.Skip("skipping: running a Pulumi Node.js program needs node and npm on PATH (install Node.js 18 or later)")
	}
	h := sha256.New()
	for _, f := range []string{"package.json", "package-lock.json"} {
		data, err := os.ReadFile(filepath.Join(example, f))
		if err != nil {
			t.Fatal(err)
		}
		h.Write(data)
	}
	cache := filepath.Join(os.TempDir(), "plinth-npm-"+hex.EncodeToString(h.Sum(nil))[:16])
	modules := filepath.Join(cache, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "@pulumi", "pulumi", "package.json")); err == nil {
		return modules
	}
	stage, err := os.MkdirTemp(os.TempDir(), "plinth-npm-stage-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(stage)
	for _, f := range []string{"package.json", "package-lock.json"} {
		data, _ := os.ReadFile(filepath.Join(example, f))
		if err := os.WriteFile(filepath.Join(stage, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error")
	cmd.Dir = stage
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("skipping: npm ci of %s failed (no network to the npm registry?): %v\n%s", example, err, out)
	}
	// Another test process may have won the race; either copy will do.
	if err := os.Rename(stage, cache); err != nil && !errors.Is(err, fs.ErrExist) {
		if _, statErr := os.Stat(modules); statErr != nil {
			t.Fatalf("caching node_modules in %s: %v", cache, err)
		}
	}
	return modules
}

// linkModules makes dir's node_modules the cached one.
func linkModules(t testing.TB, dir, modules string) {
	t.Helper()
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
}
