package examples_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestPulumiNodejsBadInput runs broken versions of the example after a
// good up: each fails with a clear error naming the resource or file (or,
// for node killed by a signal, the program's directory and the signal,
// where plinth said "exited with code -1"), and
// the state is left as it was (a preview of the good program finds
// nothing to do).
func TestPulumiNodejsBadInput(t *testing.T) {
	t.Parallel()
	p := newNodeProject(t)
	transpileOnly(t, p.Dir)
	p.Run("config", "set", "--secret", "token", "s3cr3t")
	p.Run("up", "--yes", "--skip-preview")
	good := p.Read("index.ts")
	before := p.Run("state", "ls").Stdout
	cases := []struct {
		name    string
		program string // appended to the good program
		want    []string
	}{{
		name:    "throws",
		program: "function broken(): never { throw new Error(\"boom from the program\"); }\nbroken();\n",
		want:    []string{"boom from the program", "index.ts:", "at broken"},
	}, {
		name:    "node killed",
		program: "process.kill(process.pid, \"SIGKILL\");\n",
		want:    []string{"node, running the program in " + p.Dir + ", was killed by SIGKILL (killed) before it finished"},
	}, {
		name:    "same URN twice",
		program: "new plinth.Pet(\"twin\", {});\nnew plinth.Pet(\"twin\", {});\n",
		want:    []string{"urn:pulumi:dev::pulumi-nodejs::plinth:random:Pet::twin is registered twice"},
	}, {
		name:    "malformed property value",
		program: "new plinth.File(\"bad\", { path: \"out/bad.txt\", content: { \"4dabf18193072939515e22adb298388d\": \"nonsense\" } as any });\n",
		want:    []string{"urn:pulumi:dev::pulumi-nodejs::plinth:fs:File::bad", "content", "malformed value"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			writeFile(t, filepath.Join(p.Dir, "index.ts"), good+c.program)
			r := p.Try("up", "--yes", "--skip-preview")
			if r.Code == 0 {
				t.Fatalf("up succeeded:\n%s", r.Output())
			}
			for _, w := range c.want {
				if !strings.Contains(r.Output(), w) {
					t.Errorf("the error does not say %q:\n%s", w, r.Output())
				}
			}
			// The first twin may have been created before the second was
			// refused: that is a real resource, rightly recorded.
			if after := withoutLines(p.Run("state", "ls").Stdout, "::twin "); after != before {
				t.Errorf("the state changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
	t.Run("never exits", func(t *testing.T) {
		writeFile(t, filepath.Join(p.Dir, "index.ts"), good+"pulumi.log.warn(\"waiting forever\");\nsetInterval(() => {}, 1000);\n")
		interrupts := make(chan os.Signal, 1)
		watch := clitest.NewWatch()
		opts := p.Opts
		opts.Interrupts, opts.Progress = interrupts, watch
		done := make(chan struct{})
		var r clitest.Result
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
		if after := withoutLines(p.Run("state", "ls").Stdout, "::twin "); after != before {
			t.Errorf("the state changed:\nbefore:\n%s\nafter:\n%s", before, after)
		}
	})
	writeFile(t, filepath.Join(p.Dir, "index.ts"), good)
	if strings.Contains(p.Run("state", "ls").Stdout, "::twin ") {
		p.PulumiPreview("-  plinth:random:Pet twin delete")
		p.Run("up", "--yes", "--skip-preview")
	}
	p.PulumiPreview()
}

// TestPulumiNodejsMissingModules: without npm install, plinth says so,
// naming the directory, before anything runs.
func TestPulumiNodejsMissingModules(t *testing.T) {
	dir := clitest.CopyDir(t, pulumiNodejs)
	r := clitest.Run(t, dir, clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "x"}}, "preview")
	for _, w := range []string{"Cannot run the program", "@pulumi/pulumi", "npm install", dir} {
		if !strings.Contains(r.Output(), w) {
			t.Errorf("preview without node_modules does not say %q:\n%s", w, r.Output())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".plinth")); !os.IsNotExist(err) {
		t.Errorf("preview without node_modules created the stack (err %v)", err)
	}
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// withoutLines drops the lines containing s.
func withoutLines(text, s string) string {
	var keep []string
	for _, l := range strings.SplitAfter(text, "\n") {
		if !strings.Contains(l, s) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}
