package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestPreviewErrorPaths: a malformed program is reported alone, naming
// plinth.yaml, even when the state is damaged too; a damaged state is
// reported naming its file; a torn journal's warning is shown once; and
// nothing is written to the stack's files. (A guard for any change to
// the order in which preview reads the program and the state.)
func TestPreviewErrorPaths(t *testing.T) {
	for name, c := range map[string]struct {
		badProgram, badSnapshot, tornJournal bool
		code                                 int
		want, notWant                        []string
	}{
		"malformed program and damaged state": {badProgram: true, badSnapshot: true, tornJournal: true, code: 1,
			want: []string{"plinth.yaml:", "Invalid YAML"}, notWant: []string{"Damaged journal", "Damaged state", "Preview:", "Previewing"}},
		"damaged snapshot": {badSnapshot: true, code: 1,
			want: []string{"snapshot.json: Damaged state", "is not valid JSON"}, notWant: []string{"Invalid YAML", "Preview:"}},
		"torn journal": {tornJournal: true, code: 0,
			want: []string{"Damaged journal", "Preview: 2 unchanged"}},
		"good": {code: 0, want: []string{"Preview: 2 unchanged"}, notWant: []string{"warning", "error"}},
	} {
		t.Run(name, func(t *testing.T) {
			dir := base(t)
			stack := filepath.Join(dir, ".plinth", "stacks", "dev")
			if c.badProgram {
				appendFile(t, filepath.Join(dir, "plinth.yaml"), "resources: [\n")
			}
			if c.badSnapshot {
				if err := os.WriteFile(filepath.Join(stack, "snapshot.json"), []byte("garbage\n"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if c.tornJournal {
				appendFile(t, filepath.Join(stack, "journal"), `{"torn`)
			}
			before := readTree(t, stack)
			r := clitest.Run(t, dir, clitest.Options{}, "preview")
			if r.Code != c.code {
				t.Errorf("exit %d, want %d\n%s", r.Code, c.code, r.Output())
			}
			for _, w := range c.want {
				if !strings.Contains(r.Output(), w) {
					t.Errorf("output lacks %q:\n%s", w, r.Output())
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(r.Output(), w) {
					t.Errorf("output has %q:\n%s", w, r.Output())
				}
			}
			if n := strings.Count(r.Output(), "Damaged journal"); n > 1 {
				t.Errorf("the torn journal is reported %d times:\n%s", n, r.Output())
			}
			if after := readTree(t, stack); !equalTrees(before, after) {
				t.Errorf("preview changed the stack's files")
			}
		})
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// readTree reads every file under dir, by path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		out[path] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
