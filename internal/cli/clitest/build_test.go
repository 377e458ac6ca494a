package clitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildCommands: every package is built to its path; a package that
// does not build is named in the error.
func TestBuildCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the go command")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "plinth-resource-plinth")
	if err := BuildCommands(map[string]string{"github.com/plinth-iac/plinth/cmd/pulumi-resource-plinth": out}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("the binary was not written: %v", err)
	}
	const missing = "github.com/plinth-iac/plinth/cmd/no-such-command"
	err := BuildCommands(map[string]string{missing: filepath.Join(dir, "none")})
	if err == nil || !strings.Contains(err.Error(), "building "+missing) {
		t.Errorf("building a missing package: error %v, want one naming %s", err, missing)
	}
}
