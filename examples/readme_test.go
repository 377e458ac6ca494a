package examples_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeCommands returns the commands of the README's first code block.
func readmeCommands(t *testing.T, readme string) []string {
	t.Helper()
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	in := false
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "```") && in:
			return cmds
		case strings.HasPrefix(line, "```"):
			in = true
		case in && line != "":
			cmds = append(cmds, line)
		}
	}
	t.Fatalf("%s has no code block", readme)
	return nil
}

// TestReadmeFromFreshClone follows the README exactly on a fresh clone
// of the repository: its first command must run the main job with
// nothing but Go, and its second must be the test command (not run here:
// it is what runs this test).
func TestReadmeFromFreshClone(t *testing.T) {
	if testing.Short() {
		t.Skip("clones the repository and builds plinth with go run")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	root, err := exec.Command(git, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	clone := filepath.Join(t.TempDir(), "plinth")
	if out, err := exec.Command(git, "clone", "--quiet", strings.TrimSpace(string(root)), clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	cmds := readmeCommands(t, filepath.Join(clone, "README.md"))
	if len(cmds) < 2 || !strings.HasPrefix(cmds[0], "go run ./cmd/plinth ") || cmds[1] != "go test ./..." {
		t.Fatalf("the README must start with the command that runs the main job and then `go test ./...`; it starts with %q", cmds)
	}
	args := strings.Fields(cmds[0])
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = clone
	cmd.Env = append(os.Environ(), "CI=true", "PLINTH_KEY_AGENT=off") // no key agent outlives the test
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s in a fresh clone: %v\n%s", cmds[0], err, out)
	}
	if !strings.Contains(string(out), "Update done: 3 created") {
		t.Errorf("%s did not create the quickstart's resources:\n%s", cmds[0], out)
	}
	notes, _ := filepath.Glob(filepath.Join(clone, "examples", "quickstart", "out", "*.txt"))
	if len(notes) != 2 {
		t.Errorf("the quickstart made %d files in out/, want 2 (the note and the token):\n%s", len(notes), out)
	}
}
