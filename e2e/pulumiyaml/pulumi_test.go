//go:build unix

package pulumiyaml_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/modbuild"
)

// pulumiCLI returns the pulumi CLI (see modbuild.FindPulumiCLI), skipping the
// test when there is none: this package does not build it, e2e/pulumicli
// does, once per machine.
func pulumiCLI(t *testing.T) string {
	t.Helper()
	cli, err := modbuild.FindPulumiCLI()
	if err != nil {
		t.Skip(err.Error())
	}
	return cli
}

// TestSameUnderPulumi runs one program under plinth and under the pulumi
// CLI, each in a copy of its own, with the same language host and the
// same provider plugin: the stack outputs and the files the program
// writes must be the same, after the first up and after a config change
// (set with each tool's config set). It logs how long each up took.
func TestSameUnderPulumi(t *testing.T) {
	needHost(t)
	cli := pulumiCLI(t)
	pl := newProject(t, "compare")
	pu := newPulumiProject(t, cli, "compare")

	start := time.Now()
	pl.run("up", "--yes", "--skip-preview")
	plinthUp := time.Since(start)
	start = time.Now()
	pu.run("up", "--yes", "--skip-preview")
	pulumiUp := time.Since(start)
	t.Logf("first up: plinth %s, pulumi %s", plinthUp.Round(time.Millisecond), pulumiUp.Round(time.Millisecond))
	compareRuns(t, pl, pu)

	pl.run("config", "set", "seed", "pear")
	pu.run("config", "set", "seed", "pear")
	start = time.Now()
	pl.run("up", "--yes", "--skip-preview")
	plinthUp = time.Since(start)
	start = time.Now()
	pu.run("up", "--yes", "--skip-preview")
	pulumiUp = time.Since(start)
	t.Logf("up after a config change: plinth %s, pulumi %s", plinthUp.Round(time.Millisecond), pulumiUp.Round(time.Millisecond))
	compareRuns(t, pl, pu)

	pl.run("destroy", "--yes")
	pu.run("destroy", "--yes", "--skip-preview")
}

// compareRuns compares the stack outputs and written files of the two.
func compareRuns(t *testing.T, pl *project, pu *pulumiProject) {
	t.Helper()
	var plOut, puOut map[string]any
	if err := json.Unmarshal([]byte(pl.run("stack", "output", "--json").Stdout), &plOut); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(pu.run("stack", "output", "--json"), &puOut); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(puOut, plOut); diff != "" {
		t.Errorf("stack outputs (-pulumi +plinth):\n%s", diff)
	}
	for _, f := range []string{"out/report.json", "out/copy.txt"} {
		got, want := pl.readFile(f), readFile(t, filepath.Join(pu.dir, f))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-pulumi +plinth):\n%s", f, diff)
		}
	}
	if len(plOut) == 0 {
		t.Error("the program has no outputs")
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

// pulumiProject is a copy of a testdata program run by the pulumi CLI on
// a file backend, with the language host and the provider plugin on
// PATH.
type pulumiProject struct {
	t   *testing.T
	cli string
	dir string
	env []string
}

func newPulumiProject(t *testing.T, cli, program string) *pulumiProject {
	t.Helper()
	tmp := t.TempDir()
	backend := filepath.Join(tmp, "backend")
	if err := os.MkdirAll(backend, 0o755); err != nil {
		t.Fatal(err)
	}
	p := &pulumiProject{t: t, cli: cli, dir: clitest.CopyDir(t, filepath.Join("testdata", program)), env: append(os.Environ(),
		"PULUMI_HOME="+filepath.Join(tmp, "pulumi-home"),
		"PULUMI_BACKEND_URL=file://"+backend,
		"PULUMI_CONFIG_PASSPHRASE=e2e passphrase",
		"PULUMI_SKIP_UPDATE_CHECK=true",
		"PULUMI_DIY_BACKEND_NO_LEGACY_WARNING=true",
		"PATH="+hostDir+string(os.PathListSeparator)+pluginDir+string(os.PathListSeparator)+os.Getenv("PATH"),
	)}
	p.run("stack", "init", "dev")
	return p
}

// run runs a pulumi command that must succeed and returns its stdout.
func (p *pulumiProject) run(args ...string) []byte {
	p.t.Helper()
	cmd := exec.Command(p.cli, append(args, "--non-interactive")...)
	cmd.Dir, cmd.Env = p.dir, p.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		p.t.Fatalf("pulumi %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.Bytes()
}
