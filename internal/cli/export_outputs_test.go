package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestExportPulumiOutputsWithoutResources: `state export --format pulumi`
// of a stack with outputs and no resources keeps the outputs, on a stack
// resource named for the stack and the program's project; they were
// dropped (the export held no resources at all).
func TestExportPulumiOutputsWithoutResources(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plinth.yaml"), []byte("name: bare\noutputs:\n  greeting: hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "p"}}
	clitest.MustRun(t, dir, opts, "up", "--yes")
	out := clitest.MustRun(t, dir, opts, "state", "export", "--format", "pulumi").Stdout
	for _, want := range []string{`"urn:pulumi:dev::bare::pulumi:pulumi:Stack::bare-dev"`, `"greeting":"hello"`} {
		if !strings.Contains(strings.ReplaceAll(out, " ", ""), strings.ReplaceAll(want, " ", "")) {
			t.Errorf("the export lacks %s:\n%s", want, out)
		}
	}
}
