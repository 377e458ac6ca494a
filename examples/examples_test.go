// The end-to-end tests of the examples: each example is copied to a
// temporary directory and driven through the real command line in
// process: up, a preview that finds nothing to do, edits whose preview
// must show exactly the expected updates and replacements, up again, and
// a destroy that must leave no file and no resource behind.
package examples_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// edit is one change to an example and what its preview must show.
type edit struct {
	name string
	// apply changes the project in dir: its program or its stack config.
	apply func(t *testing.T, dir string)
	// want are the step lines of the preview (clitest.ChangeLines).
	want []string
	// check runs after the update that follows.
	check func(t *testing.T, dir string)
}

// example is an example's scenario.
type example struct {
	// setup runs before the first up (e.g. shortening sleeps).
	setup func(t *testing.T, dir string)
	// created checks the world after the first up.
	created func(t *testing.T, dir string)
	edits   []edit
	// files lists, relative to the project, what destroy must remove.
	files []string
}

var opts = clitest.Options{}

func plinth(t *testing.T, dir string, args ...string) clitest.Result {
	t.Helper()
	return clitest.MustRun(t, dir, opts, args...)
}

func TestExamples(t *testing.T) {
	examples := map[string]example{
		"quickstart": quickstart(),
		"parallel":   parallel(),
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		// The Terraform example needs real providers and a registry:
		// TestTerraformExampleInitThenUp runs it; the Pulumi programs have
		// tests of their own, and so has the example provider (its package
		// and e2e/tfserve/acceptance).
		if e.IsDir() && e.Name() != "terraform" && e.Name() != "provider" && !isPulumiExample(e.Name()) {
			if _, ok := examples[e.Name()]; !ok {
				t.Errorf("example %s has no end-to-end scenario in this test", e.Name())
			}
		}
	}
	for name, ex := range examples {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runExample(t, clitest.CopyDir(t, name), ex)
		})
	}
}

func runExample(t *testing.T, dir string, ex example) {
	if ex.setup != nil {
		ex.setup(t, dir)
	}
	plinth(t, dir, "up", "--yes")
	ex.created(t, dir)
	noChanges(t, dir)
	for _, e := range ex.edits {
		e.apply(t, dir)
		r := clitest.Run(t, dir, opts, "preview", "--detailed-exitcode")
		if r.Code != 2 {
			t.Fatalf("%s: preview --detailed-exitcode = %d, want 2 (changes)\n%s", e.name, r.Code, r.Output())
		}
		// Independent resources are previewed in parallel: their order
		// carries no meaning.
		if diff := cmp.Diff(e.want, clitest.ChangeLines(r.Stdout), cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
			t.Errorf("%s: preview (-want +got):\n%s\n%s", e.name, diff, r.Stdout)
		}
		plinth(t, dir, "up", "--yes")
		if e.check != nil {
			e.check(t, dir)
		}
		noChanges(t, dir)
	}
	plinth(t, dir, "destroy", "--yes")
	for _, f := range ex.files {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			t.Errorf("after destroy, %s still exists (err %v)", f, err)
		}
	}
	emptyState(t, dir)
}

// noChanges checks that a preview right after an update finds nothing.
func noChanges(t *testing.T, dir string) {
	t.Helper()
	r := clitest.Run(t, dir, opts, "preview", "--detailed-exitcode")
	if r.Code != 0 {
		t.Fatalf("preview --detailed-exitcode after up = %d, want 0\n%s", r.Code, r.Output())
	}
}

func emptyState(t *testing.T, dir string) {
	t.Helper()
	r := plinth(t, dir, "state", "ls")
	if !strings.Contains(r.Stdout, "records no resources") {
		t.Errorf("after destroy the state still records resources:\n%s", r.Stdout)
	}
	r = plinth(t, dir, "stack", "output", "--json")
	if strings.TrimSpace(r.Stdout) != "{}" {
		t.Errorf("after destroy the stack still has outputs: %s", r.Stdout)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// output reads one stack output.
func output(t *testing.T, dir, name string) string {
	t.Helper()
	return strings.TrimSpace(plinth(t, dir, "stack", "output", name).Stdout)
}

func setConfig(key, value string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) { plinth(t, dir, "config", "set", key, value) }
}

func quickstart() example {
	var firstPet string
	return example{
		created: func(t *testing.T, dir string) {
			firstPet = output(t, dir, "petName")
			if !strings.HasPrefix(firstPet, "demo-") {
				t.Errorf("petName = %q, want demo-<adjective>-<animal>", firstPet)
			}
			if got, want := readFile(t, filepath.Join(dir, "out", firstPet+".txt")), "hello-demo from "+firstPet; got != want {
				t.Errorf("note = %q, want %q", got, want)
			}
			if got := readFile(t, filepath.Join(dir, "out", "token.txt")); got != "not-a-real-token" {
				t.Errorf("token.txt = %q", got)
			}
			if out := plinth(t, dir, "stack", "output").Stdout; !strings.Contains(out, "[secret]") || strings.Contains(out, "not-a-real-token") {
				t.Errorf("stack output shows the secret token:\n%s", out)
			}
		},
		edits: []edit{{
			name: "greeting",
			apply: func(t *testing.T, dir string) {
				clitest.Edit(t, dir, "plinth.yaml", "greeting: hello-${prefix}", "greeting: hi-${prefix}")
			},
			want: []string{"~ update note (plinth:fs:File) [diff: ~content]"},
			check: func(t *testing.T, dir string) {
				if got, want := readFile(t, filepath.Join(dir, "out", firstPet+".txt")), "hi-demo from "+firstPet; got != want {
					t.Errorf("note after the update = %q, want %q", got, want)
				}
			},
		}, {
			name:  "prefix",
			apply: setConfig("prefix", "abc"),
			want: []string{
				"+- replace pet (plinth:random:Pet) [diff: ~prefix] [forces replacement: prefix]",
				"+- replace note (plinth:fs:File) [diff: ~content, ~path] [forces replacement: path]",
			},
			check: func(t *testing.T, dir string) {
				pet := output(t, dir, "petName")
				if !strings.HasPrefix(pet, "abc-") {
					t.Errorf("petName after the replace = %q, want abc-...", pet)
				}
				if _, err := os.Stat(filepath.Join(dir, "out", firstPet+".txt")); !os.IsNotExist(err) {
					t.Errorf("the replaced note %s.txt is still there", firstPet)
				}
				if got, want := readFile(t, filepath.Join(dir, "out", pet+".txt")), "hi-abc from "+pet; got != want {
					t.Errorf("new note = %q, want %q", got, want)
				}
			},
		}, {
			name:  "secret token",
			apply: func(t *testing.T, dir string) { plinth(t, dir, "config", "set", "--secret", "token", "s3cr3t") },
			want:  []string{"~ update secretNote (plinth:fs:File) [diff: ~content]"},
			check: func(t *testing.T, dir string) {
				if got := readFile(t, filepath.Join(dir, "out", "token.txt")); got != "s3cr3t" {
					t.Errorf("token.txt = %q, want s3cr3t", got)
				}
				if cfg := readFile(t, filepath.Join(dir, "plinth.dev.yaml")); strings.Contains(cfg, "s3cr3t") || !strings.Contains(cfg, "secure:") {
					t.Errorf("plinth.dev.yaml does not hold the token encrypted:\n%s", cfg)
				}
			},
		}},
		files: []string{"out/token.txt"},
	}
}

func parallel() example {
	return example{
		setup: setConfig("seconds", "200ms"),
		created: func(t *testing.T, dir string) {
			if got := readFile(t, filepath.Join(dir, "out", "report.txt")); got != "four sleeps done\n" {
				t.Errorf("report.txt = %q", got)
			}
			if got := output(t, dir, "report"); got != "four sleeps done" {
				t.Errorf("report output = %q", got)
			}
		},
		edits: []edit{{
			name:  "message",
			apply: setConfig("message", "changed"),
			want:  []string{"~ update report (plinth:exec:Command) [diff: ~environment.MESSAGE]"},
			check: func(t *testing.T, dir string) {
				if got := readFile(t, filepath.Join(dir, "out", "report.txt")); got != "changed\n" {
					t.Errorf("report.txt after the update = %q", got)
				}
			},
		}, {
			name:  "round",
			apply: setConfig("round", "2"),
			want: []string{
				"+- replace sleepA (plinth:time:Sleep) [diff: ~triggers.round] [forces replacement: triggers.round]",
				"+- replace sleepB (plinth:time:Sleep) [diff: ~triggers.round] [forces replacement: triggers.round]",
				"+- replace sleepC (plinth:time:Sleep) [diff: ~triggers.round] [forces replacement: triggers.round]",
				"+- replace sleepD (plinth:time:Sleep) [diff: ~triggers.round] [forces replacement: triggers.round]",
			},
		}},
		files: []string{"out/report.txt"},
	}
}
