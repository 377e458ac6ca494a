package cli_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestRelativeRootIsTheProjects: an explicit provider's relative root
// resolves against the project directory, not plinth's working directory
// (the test's, here), as it does when the provider runs as a plugin in the
// project directory.
func TestRelativeRootIsTheProjects(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "relroot"))
	run(t, dir, "up", "--yes")
	if data, err := os.ReadFile(filepath.Join(dir, "data", "sub.txt")); err != nil || string(data) != "in data" {
		t.Errorf("data/sub.txt in the project = %q, %v", data, err)
	}
	run(t, dir, "destroy", "--yes")
}
