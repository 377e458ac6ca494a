package cli_test

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
)

// badCase is a mistake a person makes and what plinth must say about it.
type badCase struct {
	// env is the environment of every run of the case.
	env map[string]string
	// cmdEnv, if set, replaces env for the failing command.
	cmdEnv map[string]string
	// apply makes the mistake in a project that has been updated once.
	apply func(t *testing.T, dir string)
	args  []string
	// want are fragments the output must contain: what, where, how.
	want []string
}

func copyProgram(name string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		data, err := os.ReadFile(filepath.Join("testdata", "bad", name))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "plinth.yaml"), string(data))
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBadInput(t *testing.T) {
	upYes := []string{"up", "--yes"}
	cases := map[string]badCase{
		"malformed YAML": {apply: copyProgram("malformed.yaml"), args: upYes,
			want: []string{"plinth.yaml:4: Invalid YAML", "did not find expected"}},
		"unknown type": {apply: copyProgram("unknown-type.yaml"), args: upYes,
			want: []string{"plinth.yaml:3:3: Unknown resource type (resources.pet.type)", `Did you mean "plinth:random:Pet"?`}},
		"unknown reference": {apply: copyProgram("unknown-reference.yaml"), args: upYes,
			want: []string{"plinth.yaml:9:16: Unknown reference (resources.note.properties.content)", `Did you mean "pet"?`}},
		"cycle": {apply: copyProgram("cycle.yaml"), args: upYes,
			want: []string{"plinth.yaml:3:3: Dependency cycle", "a -> b -> a"}},
		"wrong config type, set": {args: []string{"config", "set", "count", "many"},
			want: []string{"plinth.yaml:4:3: Invalid config value (config.count)", `"many", not an integer`}},
		"wrong config type, in the stack file": {
			apply: func(t *testing.T, dir string) {
				writeFile(t, filepath.Join(dir, "plinth.dev.yaml"), "config:\n  count: many\n")
			},
			args: upYes, want: []string{"plinth.yaml:4:3: Invalid config value (config.count)", "plinth config set count VALUE"}},
		"malformed stack config file": {
			apply: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "plinth.dev.yaml"), "config: [\n") },
			args:  upYes, want: []string{"plinth.dev.yaml: Invalid stack config", "not valid YAML"}},
		"wrong passphrase": {env: map[string]string{"PLINTH_PASSPHRASE": "right"}, cmdEnv: map[string]string{"PLINTH_PASSPHRASE": "wrong"},
			args: upYes, want: []string{"Wrong passphrase", "PLINTH_PASSPHRASE", "nothing was changed"}},
		"missing passphrase": {env: map[string]string{"PLINTH_PASSPHRASE": "right"}, cmdEnv: map[string]string{},
			args: upYes, want: []string{"protected by a passphrase", "set PLINTH_PASSPHRASE"}},
		"corrupt state file": {
			apply: func(t *testing.T, dir string) {
				writeFile(t, filepath.Join(dir, ".plinth", "stacks", "dev", "snapshot.json"), `{"version": 1, "resources": [`)
			},
			args: upYes, want: []string{"Damaged state", filepath.Join(".plinth", "stacks", "dev", "snapshot.json"), "plinth state import"}},
		"locked stack": {apply: holdLock, args: upYes,
			want: []string{"Stack is locked", "(plinth up)", "plinth state unlock"}},
		"protected resource in a destroy": {apply: protect, args: []string{"destroy", "--yes"},
			want: []string{"Protected resource", "urn:pulumi:dev::base::plinth:fs:File::note", "set protect to false"}},
		"protected resource in a destroy without preview": {apply: protect, args: []string{"destroy", "--yes", "--skip-preview"},
			want: []string{"Protected resource", "urn:pulumi:dev::base::plinth:fs:File::note"}},
		"no terminal to confirm": {args: []string{"up"},
			want: []string{"Confirmation needed", "standard input is not a terminal", "--yes"}},
		"JSON without --yes": {args: []string{"destroy", "--json"},
			want: []string{"Confirmation needed", "--yes"}},
		"bad target": {args: []string{"up", "--yes", "--target", "pet"},
			want: []string{"Invalid URN", "--target", "plinth state ls"}},
		"parallel 0": {args: []string{"up", "--yes", "-p", "0"},
			want: []string{"Invalid parallelism", "--parallel 0 is not allowed", "1 or more"}},
		"negative parallel in a preview": {args: []string{"preview", "--parallel", "-2"},
			want: []string{"Invalid parallelism", "--parallel -2 is not allowed"}},
		"target matching nothing": {args: []string{"up", "--yes", "--target", "urn:pulumi:dev::base::plinth:fs:File::nope"},
			want: []string{"target urn:pulumi:dev::base::plinth:fs:File::nope matches no resource"}},
		"exclude matching nothing": {args: []string{"destroy", "--yes", "--exclude", "urn:pulumi:dev::base::plinth:fs:File::nope"},
			want: []string{"exclude urn:pulumi:dev::base::plinth:fs:File::nope matches no resource"}},
		"unknown flag": {args: []string{"up", "--yes", "--frobnicate"},
			want: []string{"Invalid command line", "unknown flag: --frobnicate"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
			clitest.MustRun(t, dir, clitest.Options{Env: c.env}, "up", "--yes")
			if c.apply != nil {
				c.apply(t, dir)
			}
			before := projectFiles(t, dir)
			env := c.env
			if c.cmdEnv != nil {
				env = c.cmdEnv
			}
			r := clitest.Run(t, dir, clitest.Options{Env: env}, c.args...)
			if r.Code != 1 {
				t.Errorf("exit code %d, want 1\n%s", r.Code, r.Output())
			}
			for _, w := range c.want {
				if !strings.Contains(r.Output(), w) {
					t.Errorf("the output does not say %q:\n%s", w, r.Output())
				}
			}
			if strings.Contains(r.Output(), "goroutine ") || strings.Contains(r.Output(), ".go:") {
				t.Errorf("the output shows Go internals:\n%s", r.Output())
			}
			if diff := cmp.Diff(before, projectFiles(t, dir)); diff != "" {
				t.Errorf("the failed command changed the project's files (-before +after):\n%s", diff)
			}
		})
	}
}

// projectFiles reads every file of a project (program, stack config,
// state, keys, lock and what the program made) to tell whether a command
// changed any.
func projectFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// holdLock locks the stack as another `plinth up` would, until the test
// ends.
// holdLock leaves the lock of a plinth up that died: its process is gone.
func holdLock(t *testing.T, dir string) {
	b := file.New(filepath.Join(dir, ".plinth"))
	holder := state.CurrentProcess("plinth up")
	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	holder.PID = dead.Process.Pid
	lock, err := b.Lock(context.Background(), "dev", holder)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Unlock(context.Background()) })
}

// protect protects the note and records that in the state.
func protect(t *testing.T, dir string) {
	copyProgram("protected.yaml")(t, dir)
	clitest.MustRun(t, dir, clitest.Options{}, "up", "--yes")
}
