//go:build unix

package pulumicli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// passphrase encrypts secrets for both tools: plinth's export and
// adoption read PULUMI_CONFIG_PASSPHRASE, as the pulumi CLI does.
const passphrase = "e2e pulumi passphrase"

// world is one test's plinth project and Pulumi workspace, with homes,
// backends and the passphrase of their own, so that nothing outside the
// test is read or written.
type world struct {
	t       *testing.T
	cli     string
	project string // the plinth program's directory
	pulumi  string // the Pulumi project's directory (Pulumi.yaml)
	env     map[string]string
}

// newWorld copies testdata/<program>, and logs the pulumi CLI into a
// file backend under the test's temporary directory, with stack dev of
// a Pulumi project of the same name initialised.
func newWorld(t *testing.T, program string) *world {
	cli := needCLI(t)
	tmp := t.TempDir()
	w := &world{t: t, cli: cli, project: clitest.CopyDir(t, filepath.Join("testdata", program)),
		pulumi: filepath.Join(tmp, "pulumi-project"), env: map[string]string{
			"PLINTH_HOME":                          filepath.Join(tmp, "plinth-home"),
			"PULUMI_HOME":                          filepath.Join(tmp, "pulumi-home"),
			"PULUMI_BACKEND_URL":                   "file://" + filepath.Join(tmp, "pulumi-backend"),
			"PULUMI_CONFIG_PASSPHRASE":             passphrase,
			"PULUMI_SKIP_UPDATE_CHECK":             "true",
			"PULUMI_DIY_BACKEND_NO_LEGACY_WARNING": "true",
			"HOME":                                 tmp,
		}}
	for _, d := range []string{w.pulumi, filepath.Join(tmp, "pulumi-backend")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.write(filepath.Join(w.pulumi, "Pulumi.yaml"), "name: "+program+"\nruntime: yaml\n")
	w.mustPulumi("login", w.env["PULUMI_BACKEND_URL"])
	w.mustPulumi("stack", "init", "dev")
	w.plinth("stack", "init", "dev")
	return w
}

// plinth runs a plinth command in the project, which must succeed.
func (w *world) plinth(args ...string) clitest.Result {
	w.t.Helper()
	return clitest.MustRun(w.t, w.project, clitest.Options{Env: w.env}, args...)
}

// tryPlinth runs a plinth command that may fail.
func (w *world) tryPlinth(env map[string]string, args ...string) clitest.Result {
	w.t.Helper()
	return clitest.Run(w.t, w.project, clitest.Options{Env: env}, args...)
}

// runPulumi runs the pulumi CLI in the Pulumi project and returns its
// combined output and error.
func (w *world) runPulumi(args ...string) (string, error) {
	cmd := exec.Command(w.cli, append(args, "--non-interactive")...)
	cmd.Dir = w.pulumi
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range w.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// mustPulumi runs a pulumi command that must succeed.
func (w *world) mustPulumi(args ...string) string {
	w.t.Helper()
	out, err := w.runPulumi(args...)
	if err != nil {
		w.t.Fatalf("pulumi %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func (w *world) write(path, content string) {
	w.t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) read(path string) []byte {
	w.t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		w.t.Fatal(err)
	}
	return data
}

// file is a path in the test's scratch space beside the Pulumi project.
func (w *world) file(name string) string { return filepath.Join(filepath.Dir(w.pulumi), name) }
