package tflang

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBadInput applies testdata/badbase, then replaces main.tf with each
// broken configuration under testdata/bad (a FILE.tf, or a directory
// whose files, main.tf and others, are copied in): up must exit 1 with a
// diagnostic at the file:line:col and with the summary main.tf's first
// line ("# want: main.tf:L:C Summary") names (the file relative to the
// project, though plinth runs with -C and the project's absolute
// path), with the text of each
// "# also: TEXT" line that follows it (DIR in TEXT stands for the
// project's directory), and leave the recorded state byte for byte as
// it was.
func TestBadInput(t *testing.T) {
	needReal(t)
	cases, err := filepath.Glob("testdata/bad/*")
	if err != nil || len(cases) < 25 {
		t.Fatalf("want at least 25 broken configurations, have %d: %v", len(cases), err)
	}
	for _, c := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(c), ".tf"), func(t *testing.T) {
			t.Parallel()
			main, extra := c, ""
			if !strings.HasSuffix(c, ".tf") {
				main, extra = filepath.Join(c, "main.tf"), c
			}
			src, err := os.ReadFile(main)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(src), "\n")
			want, ok := strings.CutPrefix(first, "# want: ")
			if !ok {
				t.Fatalf("%s does not start with # want: FILE:LINE:COL SUMMARY", c)
			}
			where, summary, _ := strings.Cut(want, " ")
			p := newProject(t, "testdata/badbase")
			p.must("up", "--yes")
			before := tree(t, filepath.Join(p.dir, ".plinth", "stacks"))
			if extra != "" {
				if err := os.Remove(filepath.Join(p.dir, "main.tf")); err != nil {
					t.Fatal(err)
				}
				if err := os.CopyFS(p.dir, os.DirFS(extra)); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(p.dir, "main.tf"), src, 0o644); err != nil {
				t.Fatal(err)
			}
			r := p.run("up", "--yes")
			if r.Code != 1 {
				t.Fatalf("up exited %d, want 1:\n%s", r.Code, r.Output())
			}
			// the file is named relative to the project, as terraform
			// names it relative to its working directory
			if !strings.Contains(r.Stderr, "error: "+where) || !strings.Contains(r.Stderr, summary) {
				t.Errorf("the error does not name %s with %q:\n%s", where, summary, r.Stderr)
			}
			for _, line := range alsoWanted(string(src), p.dir) {
				if !strings.Contains(r.Stderr, line) {
					t.Errorf("the error does not say %q:\n%s", line, r.Stderr)
				}
			}
			if diff := cmp.Diff(before, tree(t, filepath.Join(p.dir, ".plinth", "stacks"))); diff != "" {
				t.Errorf("the recorded state changed (-before +after):\n%s", diff)
			}
		})
	}
}

// alsoWanted is the text of the "# also: " lines that follow a broken
// configuration's first line, with DIR replaced by dir.
func alsoWanted(src, dir string) []string {
	var out []string
	for _, line := range strings.Split(src, "\n")[1:] {
		text, ok := strings.CutPrefix(line, "# also: ")
		if !ok {
			break
		}
		out = append(out, strings.ReplaceAll(text, "DIR", dir))
	}
	return out
}

// tree reads every file under dir.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".lock") {
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
