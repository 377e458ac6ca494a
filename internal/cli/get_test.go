package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// readProgram reads a file plinth did not create (get) and writes a copy
// of its content into a file plinth manages.
const readProgram = `name: reader
config:
  motdPath: { default: motd.txt }
resources:
  motd:
    type: plinth:fs:File
    get:
      id: ${motdPath}
  copy:
    type: plinth:fs:File
    properties:
      path: out/copy.txt
      content: "copied: ${motd.content}"
outputs:
  size: ${motd.size}
`

// TestYAMLGetReadsAnExistingFile: a YAML program reads, with get, a file
// created outside plinth; the preview shows the read, up records it and
// another resource uses its content, a second up changes nothing, and
// destroy deletes the managed copy but leaves the read file alone.
func TestYAMLGetReadsAnExistingFile(t *testing.T) {
	dir := t.TempDir()
	motd := filepath.Join(dir, "motd.txt")
	if err := os.WriteFile(motd, []byte("hello from outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plinth.yaml"), []byte(readProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	preview := run(t, dir, "preview").Output()
	if !strings.Contains(preview, "> read") || !strings.Contains(preview, "motd") {
		t.Errorf("the preview does not show motd read:\n%s", preview)
	}
	up := run(t, dir, "up", "--yes").Output()
	if !strings.Contains(up, "size") || !strings.Contains(up, "18") {
		t.Errorf("up does not output the read file's size 18:\n%s", up)
	}
	copied, err := os.ReadFile(filepath.Join(dir, "out", "copy.txt"))
	if err != nil || string(copied) != "copied: hello from outside" {
		t.Errorf("out/copy.txt = %q, %v; want the read file's content copied", copied, err)
	}
	if r := clitest.Run(t, dir, clitest.Options{}, "preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("a preview after up exits %d, want 0 (no changes):\n%s", r.Code, r.Output())
	}
	run(t, dir, "destroy", "--yes")
	if got, err := os.ReadFile(motd); err != nil || string(got) != "hello from outside" {
		t.Errorf("after destroy motd.txt = %q, %v; destroy must leave a read file alone", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "copy.txt")); !os.IsNotExist(err) {
		t.Errorf("destroy left the managed copy: %v", err)
	}
}
