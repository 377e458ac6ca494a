package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestPreviewOutputChanges: a change only to the stack outputs is shown
// by preview and counted by --detailed-exitcode (item 16), in text and
// JSON.
func TestPreviewOutputChanges(t *testing.T) {
	dir := base(t)
	clitest.Edit(t, dir, "plinth.yaml", "outputs:\n  pet: ${pet.id}", "outputs:\n  pet: \"the pet ${pet.id}\"\n  count: ${count}")
	r := clitest.Run(t, dir, clitest.Options{}, "preview", "--detailed-exitcode")
	if r.Code != 2 {
		t.Errorf("preview --detailed-exitcode of an output-only change: exit %d, want 2\n%s", r.Code, r.Output())
	}
	for _, want := range []string{"Outputs:\n  + count: 2\n  ~ pet:   \"", `" => "the pet `, "Preview: 2 unchanged, 2 outputs to change"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("preview lacks %q:\n%s", want, r.Stdout)
		}
	}
	j := clitest.Run(t, dir, clitest.Options{}, "preview", "--json")
	if !strings.Contains(j.Stdout, `"outputChanges":{"count":"add","pet":"update"}`) {
		t.Errorf("preview --json lacks the output changes:\n%s", j.Stdout)
	}
	run(t, dir, "up", "--yes")
	if r := clitest.Run(t, dir, clitest.Options{}, "preview", "--detailed-exitcode"); r.Code != 0 || strings.Contains(r.Stdout, "Outputs:") {
		t.Errorf("preview after the update: exit %d, want 0 and no output changes\n%s", r.Code, r.Output())
	}
}

// TestPreviewRefresh: preview --refresh (and -r) reads the world first
// and shows the drift, then previews against it, recording nothing
// (item 16).
func TestPreviewRefresh(t *testing.T) {
	dir := base(t)
	note := filepath.Join(dir, "out", "note.txt")
	if err := os.WriteFile(note, []byte("edited outside plinth"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := clitest.Run(t, dir, clitest.Options{}, "preview", "--detailed-exitcode"); r.Code != 0 {
		t.Fatalf("preview without --refresh: exit %d, want 0 (it does not read the world)\n%s", r.Code, r.Output())
	}
	for _, flag := range []string{"--refresh", "-r"} {
		r := clitest.Run(t, dir, clitest.Options{}, "preview", flag, "--detailed-exitcode", "--diff")
		if r.Code != 2 {
			t.Errorf("preview %s: exit %d, want 2\n%s", flag, r.Code, r.Output())
		}
		refresh, update := strings.Index(r.Stdout, "Previewing refresh"), strings.Index(r.Stdout, "Previewing update")
		if refresh < 0 || update < refresh {
			t.Errorf("preview %s does not show the refresh before the update:\n%s", flag, r.Stdout)
		}
		for _, want := range []string{`~ content: "note about `, `" => "edited outside plinth"`, "~ update note (plinth:fs:File)"} {
			if !strings.Contains(r.Stdout, want) {
				t.Errorf("preview %s lacks %q:\n%s", flag, want, r.Stdout)
			}
		}
	}
	// Nothing was recorded: without --refresh the preview still sees none.
	if r := clitest.Run(t, dir, clitest.Options{}, "preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("preview --refresh recorded what it read: a plain preview now exits %d\n%s", r.Code, r.Output())
	}
}
