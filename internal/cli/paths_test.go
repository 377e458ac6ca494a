package cli_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestChdirResolvesPaths: with -C DIR every path on the command line,
// argument or flag, is relative to DIR, as with git -C, terraform -chdir
// and pulumi --cwd: plinth runs here with -C proj, and each file is
// read from, or written to, proj/.
func TestChdirResolvesPaths(t *testing.T) {
	abs := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	writeFile(t, filepath.Join(abs, "terraform.tfstate"), tfState(goodResource))
	t.Chdir(filepath.Dir(abs))
	dir := filepath.Base(abs) // plinth runs with -C proj, a relative path
	steps := []struct {
		args  []string
		wrote string // the file the step writes under proj/; "": none
	}{
		{args: []string{"up", "--yes"}},
		{args: []string{"config", "set", "count", "3"}},
		{args: []string{"preview", "--save-plan", "change.plan"}, wrote: "change.plan"},
		{args: []string{"up", "--plan", "change.plan"}},
		{args: []string{"state", "export", "--file", "state.json"}, wrote: "state.json"},
		{args: []string{"state", "import", "--file", "state.json", "--yes"}},
		{args: []string{"state", "adopt", "terraform.tfstate", "--force"}},
		{args: []string{"state", "export", "--format", "terraform", "--previous", "terraform.tfstate", "--file", "again.tfstate"}, wrote: "again.tfstate"},
	}
	for _, s := range steps {
		r := clitest.Run(t, dir, clitest.Options{}, s.args...)
		if r.Code != 0 {
			t.Fatalf("plinth -C %s %v: exit %d\n%s", dir, s.args, r.Code, r.Output())
		}
		if s.wrote == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(abs, s.wrote)); err != nil {
			t.Errorf("plinth -C %s %v did not write %s there: %v", dir, s.args, s.wrote, err)
		}
		if _, err := os.Stat(s.wrote); err == nil {
			t.Errorf("plinth -C %s %v wrote %s in the shell's directory", dir, s.args, s.wrote)
		}
	}
}
