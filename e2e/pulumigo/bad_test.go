package pulumigo_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestGoBadPrograms: a program that does not build, one that panics and
// one whose body returns an error each fail `plinth up` with exit code 1
// and a message that says which program and why, and leave the state as
// it was: the same resources and outputs, and once the program is put
// back, a preview that finds nothing. A program that never exits is
// ended by Ctrl-C.
func TestGoBadPrograms(t *testing.T) {
	t.Parallel()
	p := newGoProject(t, "lifecycle")
	p.Run("config", "set", "--secret", "token", "s3cr3t")
	p.Run("up", "--yes", "--skip-preview")
	urns, pet := p.urns(), p.output("petName")
	good := p.Read("main.go")
	const body = "pulumi.Run(func(ctx *pulumi.Context) error {\n"
	for _, tc := range []struct {
		name      string
		old, new  string
		want      []string
		wantInOut bool
	}{
		{
			name: "does not build",
			old:  body, new: body + "\t\tvar unused int = \"text\"\n",
			want: []string{"Cannot run the program", "the Go program in " + p.Dir + " does not build",
				`cannot use "text"`, "main.go:"},
		},
		{
			name: "panics",
			old:  body, new: body + "\t\tpanic(\"the test's panic\")\n",
			want: []string{"panic: the test's panic", "main.go:", "the Go program in " + p.Dir + " exited with code 2"},
		},
		{
			name: "returns an error",
			old:  "\t\treturn nil\n\t})", new: "\t\treturn fmt.Errorf(\"the test refuses\")\n\t})",
			want: []string{"the test refuses"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clitest.Edit(t, p.Dir, "main.go", tc.old, tc.new)
			r := p.Try("up", "--yes")
			if r.Code != 1 {
				t.Errorf("up exited with %d, want 1\n%s", r.Code, r.Output())
			}
			for _, w := range tc.want {
				if !strings.Contains(r.Output(), w) {
					t.Errorf("up does not say %q:\n%s", w, r.Output())
				}
			}
			if diff := cmp.Diff(urns, p.urns()); diff != "" {
				t.Errorf("the failed up changed the resources in the state (-before +after):\n%s", diff)
			}
			if got := p.output("petName"); got != pet {
				t.Errorf("petName after the failed up = %q, want %q", got, pet)
			}
			writeFile(t, filepath.Join(p.Dir, "main.go"), good)
			p.PulumiPreview()
		})
	}
	t.Run("never exits", func(t *testing.T) {
		clitest.Edit(t, p.Dir, "main.go", "\t\"fmt\"\n", "\t\"fmt\"\n\t\"time\"\n")
		clitest.Edit(t, p.Dir, "main.go", body, body+"\t\t_ = ctx.Log.Warn(\"waiting forever\", nil)\n\t\ttime.Sleep(time.Hour)\n")
		interrupts := make(chan os.Signal, 1)
		watch := clitest.NewWatch()
		opts := p.Opts
		opts.Interrupts, opts.Progress = interrupts, watch
		done := make(chan struct{})
		var r clitest.Result
		start := time.Now()
		go func() {
			defer close(done)
			r = clitest.Run(t, p.Dir, opts, "up", "--yes", "--skip-preview")
		}()
		watch.WaitFor(t, "waiting forever", done)
		interrupts <- os.Interrupt
		<-done
		if r.Code == 0 || !strings.Contains(r.Output(), "Interrupted") {
			t.Errorf("up of a program that never exits, interrupted: exit %d, want a failure that says Interrupted:\n%s", r.Code, r.Output())
		}
		if took := time.Since(start); took > time.Minute {
			t.Errorf("the interrupted up took %s", took)
		}
		if diff := cmp.Diff(urns, p.urns()); diff != "" {
			t.Errorf("the interrupted up changed the resources in the state (-before +after):\n%s", diff)
		}
		writeFile(t, filepath.Join(p.Dir, "main.go"), good)
		p.PulumiPreview()
	})
}

// TestGoPrebuiltBinary: with the runtime option binary, plinth runs the
// binary named and builds nothing (the source no longer builds, and up
// still succeeds); a binary that is not there is refused with the option
// and the path.
func TestGoPrebuiltBinary(t *testing.T) {
	t.Parallel()
	p := newGoProject(t, "lifecycle")
	build := exec.Command("go", "build", "-o", filepath.Join("bin", "program"), ".")
	build.Dir = p.Dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	writeFile(t, filepath.Join(p.Dir, "Pulumi.yaml"), "name: golife\nruntime:\n  name: go\n  options:\n    binary: bin/program\n")
	writeFile(t, filepath.Join(p.Dir, "broken.go"), "package main\n\nvar broken int = \"text\"\n")
	p.Run("config", "set", "--secret", "token", "s3cr3t")
	if r := p.Run("up", "--yes"); !strings.Contains(r.Stdout, "7 created") {
		t.Errorf("up with the prebuilt binary does not say 7 created:\n%s", r.Output())
	}
	p.PulumiPreview()

	if err := os.Remove(filepath.Join(p.Dir, "bin", "program")); err != nil {
		t.Fatal(err)
	}
	r := p.Try("preview")
	if r.Code != 1 || !strings.Contains(r.Output(), "the runtime option binary names "+filepath.Join(p.Dir, "bin", "program")+", which is not an executable file") {
		t.Errorf("preview with the binary missing: exit %d, want 1 and the option named\n%s", r.Code, r.Output())
	}
}

// TestGoBadInputLeavesStateAlone: after a good up, an unknown runtime, a
// resource transform that panics and a program killed while it runs each
// fail `plinth up` and `plinth preview` with exit code 1 and an error
// naming the project file or the program and what happened, and leave
// the stack's state files byte for byte as they were.
func TestGoBadInputLeavesStateAlone(t *testing.T) {
	t.Parallel()
	p := newGoProject(t, "lifecycle")
	p.Run("config", "set", "--secret", "token", "s3cr3t")
	p.Run("up", "--yes", "--skip-preview")
	before := stateFiles(t, p.Dir)
	goodMain, goodProject := p.Read("main.go"), p.Read("Pulumi.yaml")
	const body = "pulumi.Run(func(ctx *pulumi.Context) error {\n"
	for _, tc := range []struct {
		name string
		file string
		old  string
		new  string
		want []string
	}{
		{name: "unknown runtime", file: "Pulumi.yaml", old: "runtime: go", new: "runtime: cobol",
			want: []string{filepath.Join(p.Dir, "Pulumi.yaml"), `runtime "cobol" is not supported by plinth; the runtimes it runs are`}},
		{name: "transform panics", file: "main.go", old: body,
			new: body + "\t\tif err := ctx.RegisterResourceTransform(func(context.Context, *pulumi.ResourceTransformArgs) *pulumi.ResourceTransformResult {\n" +
				"\t\t\tpanic(\"the transform's panic\")\n\t\t}); err != nil {\n\t\t\treturn err\n\t\t}\n",
			want: []string{"urn:pulumi:dev::golife::", "a transform failed", "the transform's panic"}},
		{name: "killed", file: "main.go", old: body,
			new:  body + "\t\t_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)\n",
			want: []string{"the Go program in " + p.Dir + " was killed by SIGKILL (killed) before it finished"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.file == "main.go" {
				clitest.Edit(t, p.Dir, "main.go", "import (\n", "import (\n\t\"context\"\n\t\"os\"\n\t\"syscall\"\n")
				clitest.Edit(t, p.Dir, "main.go", body, body+"\t\t_, _, _ = context.Background, os.Getpid, syscall.Kill\n")
			}
			clitest.Edit(t, p.Dir, tc.file, tc.old, tc.new)
			defer writeFile(t, filepath.Join(p.Dir, "main.go"), goodMain)
			defer writeFile(t, filepath.Join(p.Dir, "Pulumi.yaml"), goodProject)
			for _, args := range [][]string{{"preview"}, {"up", "--yes", "--skip-preview"}} {
				r := p.Try(args...)
				if r.Code != 1 {
					t.Errorf("%s exited with %d, want 1\n%s", args[0], r.Code, r.Output())
				}
				for _, w := range tc.want {
					if !strings.Contains(r.Output(), w) {
						t.Errorf("%s does not say %q:\n%s", args[0], w, r.Output())
					}
				}
			}
			if diff := cmp.Diff(before, stateFiles(t, p.Dir)); diff != "" {
				t.Errorf("the state files changed (-before +after):\n%s", diff)
			}
		})
	}
}

// stateFiles reads every file plinth keeps for the project's stacks
// (under .plinth, but for plugins, the lock and the history, where a
// failed update is rightly recorded), by path.
func stateFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	root := filepath.Join(dir, ".plinth")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if strings.HasPrefix(rel, "plugins") || strings.HasSuffix(rel, ".lock") || strings.HasSuffix(rel, "history.jsonl") {
			return nil
		}
		b, err := os.ReadFile(path)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no state files under %s", root)
	}
	return out
}
