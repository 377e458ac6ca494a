package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// planned makes the base program's first plan: up, then a change (count
// 3 replaces the pet, which updates the note), saved as a plan.
func planned(t *testing.T, opts clitest.Options) (dir, planFile string) {
	t.Helper()
	dir = clitest.CopyDir(t, filepath.Join("testdata", "base"))
	clitest.MustRun(t, dir, opts, "up", "--yes")
	clitest.MustRun(t, dir, opts, "config", "set", "count", "3")
	planFile = filepath.Join(t.TempDir(), "change.plan")
	clitest.MustRun(t, dir, opts, "preview", "--save-plan", planFile)
	return dir, planFile
}

// TestSavedPlanAppliesThePreviewedSteps: up --plan does exactly the steps
// the preview showed, without asking, on each backend.
func TestSavedPlanAppliesThePreviewedSteps(t *testing.T) {
	for name, env := range backends(t) {
		t.Run(name, func(t *testing.T) {
			opts := clitest.Options{Env: env(t)}
			dir, planFile := planned(t, opts)
			var saved struct{ Steps []struct{ URN, Op string } }
			if err := json.Unmarshal([]byte(readFile(t, planFile)), &saved); err != nil {
				t.Fatal(err)
			}
			var steps []string
			for _, s := range saved.Steps {
				steps = append(steps, s.Op+" "+s.URN[strings.LastIndex(s.URN, "::")+2:])
			}
			sort.Strings(steps)
			want := []string{"create-replacement pet", "delete-replaced pet", "update note"}
			if diff := cmp.Diff(want, steps); diff != "" {
				t.Errorf("the plan's steps (-want +got):\n%s", diff)
			}
			up := clitest.MustRun(t, dir, opts, "up", "--plan", planFile)
			for _, done := range []string{"+- replaced pet", "~ updated note", "-- deleted original pet", "Update done: 1 updated, 1 replaced"} {
				if !strings.Contains(up.Stdout, done) {
					t.Errorf("up --plan did not say %q:\n%s", done, up.Output())
				}
			}
			again := clitest.Run(t, dir, opts, "up", "--plan", planFile)
			if again.Code != 1 || !strings.Contains(again.Output(), "the stack's state changed since") {
				t.Errorf("a plan applied twice: exit %d, want 1 saying the state changed\n%s", again.Code, again.Output())
			}
		})
	}
}

// TestSavedPlanRefused: up --plan refuses, changing nothing, when
// something changed since the plan was made.
func TestSavedPlanRefused(t *testing.T) {
	tests := map[string]struct {
		change func(t *testing.T, dir, planFile string, opts clitest.Options) []string // returns up's extra args
		want   []string
	}{
		"another up in between": {
			change: func(t *testing.T, dir, _ string, opts clitest.Options) []string {
				clitest.MustRun(t, dir, opts, "up", "--yes")
				return nil
			},
			want: []string{"The plan no longer applies", "the stack's state changed since", "another command recorded something"},
		},
		"program edited": {
			change: func(t *testing.T, dir, _ string, _ clitest.Options) []string {
				clitest.Edit(t, dir, "plinth.yaml", "note about", "a note about")
				return nil
			},
			want: []string{"The plan no longer applies", "the program, the stack config or the -var arguments changed since"},
		},
		"stack config edited": {
			change: func(t *testing.T, dir, _ string, opts clitest.Options) []string {
				clitest.MustRun(t, dir, opts, "config", "set", "count", "4")
				return nil
			},
			want: []string{"the program, the stack config or the -var arguments changed since"},
		},
		"another stack": {
			change: func(t *testing.T, dir, _ string, opts clitest.Options) []string {
				clitest.MustRun(t, dir, opts, "stack", "init", "prod")
				return []string{"--stack", "prod"}
			},
			want: []string{"was made for stack dev, and this is stack prod"},
		},
		"plan file tampered": {
			change: func(t *testing.T, _, planFile string, _ clitest.Options) []string {
				data := readFile(t, planFile)
				writeFile(t, planFile, strings.Replace(data, `"op": "update"`, `"op": "delete"`, 1))
				return nil
			},
			want: []string{"Cannot use the plan", "the plan file was changed after plinth wrote it"},
		},
		"with --target": {
			change: func(*testing.T, string, string, clitest.Options) []string { return []string{"--target", "x"} },
			want:   []string{"--target, --exclude and --replace cannot be given with --plan"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			opts := clitest.Options{}
			dir, planFile := planned(t, opts)
			extra := tc.change(t, dir, planFile, opts)
			before := clitest.MustRun(t, dir, opts, "state", "export", "--stack", "dev").Stdout
			r := clitest.Run(t, dir, opts, append([]string{"up", "--plan", planFile}, extra...)...)
			if r.Code != 1 {
				t.Errorf("exit %d, want 1\n%s", r.Code, r.Output())
			}
			for _, w := range tc.want {
				if !strings.Contains(r.Output(), w) {
					t.Errorf("the refusal does not say %q:\n%s", w, r.Output())
				}
			}
			if after := clitest.MustRun(t, dir, opts, "state", "export", "--stack", "dev").Stdout; after != before {
				t.Errorf("a refused up --plan changed the state")
			}
		})
	}
}

// TestSavedPlanHoldsNoPlaintextSecret: a secret config value that flows
// into a resource's inputs is not in the plan file, nor is the program.
func TestSavedPlanHoldsNoPlaintextSecret(t *testing.T) {
	opts := clitest.Options{}
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	clitest.Edit(t, dir, "plinth.yaml", "config:\n", "config:\n  token: { type: string, secret: true }\n")
	clitest.Edit(t, dir, "plinth.yaml", `content: "note about ${pet.id}"`, `content: "note ${token} about ${pet.id}"`)
	const secret = "hunter2-plan-secret"
	clitest.MustRun(t, dir, opts, "config", "set", "--secret", "token", secret)
	planFile := filepath.Join(dir, "first.plan")
	clitest.MustRun(t, dir, opts, "preview", "--save-plan", planFile)
	data := readFile(t, planFile)
	for _, plain := range []string{secret, "note about", "out/note.txt"} {
		if strings.Contains(data, plain) {
			t.Errorf("the plan file holds %q in plaintext:\n%s", plain, data)
		}
	}
	if fi, err := os.Stat(planFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the plan file's mode: %v, %v; want 0600", fi.Mode(), err)
	}
	clitest.MustRun(t, dir, opts, "up", "--plan", planFile)
	if got := readFile(t, filepath.Join(dir, "out", "note.txt")); !strings.Contains(got, secret) {
		t.Errorf("the note after up --plan: %q", got)
	}
}

// TestSavedPlanKeepsReplace: a plan made with --replace replaces what it
// names when applied, with no --replace given to up.
func TestSavedPlanKeepsReplace(t *testing.T) {
	opts := clitest.Options{}
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	clitest.MustRun(t, dir, opts, "up", "--yes")
	planFile := filepath.Join(t.TempDir(), "replace.plan")
	clitest.MustRun(t, dir, opts, "preview", "--save-plan", planFile, "--replace", "pet")
	up := clitest.MustRun(t, dir, opts, "up", "--plan", planFile)
	if !strings.Contains(up.Stdout, "+- replaced pet") {
		t.Errorf("up --plan of a plan made with --replace pet did not replace it:\n%s", up.Output())
	}
	refused := clitest.Run(t, dir, opts, "up", "--plan", planFile, "--replace", "pet")
	if refused.Code != 1 || !strings.Contains(refused.Output(), "cannot be given with --plan") {
		t.Errorf("up --plan --replace: exit %d, want 1 refusing the flag\n%s", refused.Code, refused.Output())
	}
}
