package cli_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// goldenOptions make output deterministic: a clock that never moves and
// every finished step taking 1.5s.
var goldenOptions = clitest.Options{
	Now: func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) },
	Rewrite: func(e *engine.Event) {
		if e.Kind == engine.EventStepDone {
			e.Duration = 1500 * time.Millisecond
		}
	},
}

// TestGolden runs a small program through up, an edit, a preview with
// diffs, an update in JSON and a destroy, and compares each output with
// testdata/golden/*. Run with -update to rewrite them after a deliberate
// change of format.
func TestGolden(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "golden", "program"))
	steps := []struct {
		golden string
		edit   func()
		args   []string
	}{
		{golden: "up.txt", args: []string{"up", "--yes"}},
		{golden: "preview-diff.txt", args: []string{"preview", "--diff"},
			edit: func() { clitest.Edit(t, dir, "plinth.yaml", "default: first", "default: second") }},
		{golden: "update.jsonl", args: []string{"up", "--yes", "--json"}},
		{golden: "destroy.txt", args: []string{"destroy", "--yes"}},
		{golden: "up-again.jsonl", args: []string{"up", "--yes", "--skip-preview", "--json"}},
	}
	for _, s := range steps {
		if s.edit != nil {
			s.edit()
		}
		r := clitest.MustRun(t, dir, goldenOptions, s.args...)
		compareGolden(t, filepath.Join("testdata", "golden", s.golden), r.Stdout)
	}
}

// TestGoldenTerraform shows a Terraform configuration's preview, update,
// edited preview and destroy in terraform's words (+ ~ - -/+ markers,
// "(known after apply)", "# forces replacement", "(sensitive value)",
// "Plan: N to add, N to change, N to destroy.") and compares them with
// testdata/terraform/*.txt. terraform_data's ids are random UUIDs: they
// are written as <uuid>.
func TestGoldenTerraform(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "terraform", "config"))
	steps := []struct {
		golden string
		edit   func()
		args   []string
	}{
		{golden: "preview.txt", args: []string{"preview"}},
		{golden: "up.txt", args: []string{"up", "--yes", "--skip-preview"}},
		{golden: "preview-edit.txt", args: []string{"preview"}, edit: func() {
			clitest.Edit(t, dir, "main.tf", `default = "hello"`, `default = "hi"`)
			clitest.Edit(t, dir, "main.tf", `"v1"`, `"v2"`)
			clitest.Edit(t, dir, "main.tf", "resource \"terraform_data\" \"gone\"", "resource \"terraform_data\" \"new\"")
		}},
		{golden: "preview-clean.txt", args: []string{"preview"}, edit: func() {
			clitest.MustRun(t, dir, goldenOptions, "up", "--yes", "--skip-preview")
		}},
		{golden: "destroy.txt", args: []string{"destroy", "--yes"}},
	}
	uuid := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	for _, s := range steps {
		if s.edit != nil {
			s.edit()
		}
		r := clitest.MustRun(t, dir, goldenOptions, s.args...)
		compareGolden(t, filepath.Join("testdata", "terraform", s.golden), sortProgress(uuid.ReplaceAllString(r.Stdout, "<uuid>")))
	}
}

// sortProgress sorts each run of progress lines ("ADDRESS: Creating..."),
// whose order between resources created at once is the scheduler's.
func sortProgress(out string) string {
	lines := strings.Split(out, "\n")
	progress := func(l string) bool { return strings.HasPrefix(l, "terraform_data.") }
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && progress(lines[j]) {
			j++
		}
		sort.Strings(lines[i:j])
		i = j + 1
	}
	return strings.Join(lines, "\n")
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); diff != "" {
		t.Errorf("%s differs (-want +got); if the change is deliberate, run with -update:\n%s", path, diff)
	}
}
