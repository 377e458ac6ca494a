package examples_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/plinth-iac/plinth/internal/langhost/nodejs/nodetest"
)

// isPulumiExample reports whether an example directory is a Pulumi
// program (tested by TestPulumiNodejs, not TestExamples).
func isPulumiExample(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "Pulumi.yaml"))
	return err == nil
}

// npmModules returns a node_modules directory holding what the example's
// package.json and package-lock.json name, installed with npm ci from the
// npm registry once and cached under the OS temp dir (nodetest.Modules).
// Without npm and node the test is skipped.
func npmModules(t testing.TB, example string) string {
	t.Helper()
	return nodetest.Modules(t, example)
}

// linkModules makes dir's node_modules the cached one.
func linkModules(t testing.TB, dir, modules string) {
	t.Helper()
	nodetest.Link(t, dir, modules)
}
