package pulumi_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
)

var update = flag.Bool("update", false, "rewrite the golden files from the in-process run")

// Built by TestMain: the plugin binary, the directory holding it (what
// PLINTH_PLUGIN_PATH names), this test binary, which serves the built-in
// provider when it runs in process, and the directory holding the echo
// plugin of the secrets scan (internal/pulumi-resource-echo).
var (
	pluginBinary string
	pluginDir    string
	testBinary   string
	echoDir      string
)

func TestMain(m *testing.M) {
	flag.Parse()
	if runtime.GOOS != "linux" {
		fmt.Println("skipping: these tests learn which binary served a resource from /proc, so they run on Linux only")
		os.Exit(0)
	}
	code, err := buildAndRun(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(code)
}

func buildAndRun(m *testing.M) (int, error) {
	dir, err := os.MkdirTemp("", "e2e-pulumi")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		return 0, err
	}
	pluginDir = filepath.Join(dir, "plugins")
	pluginBinary = filepath.Join(pluginDir, "pulumi-resource-plinth")
	echoDir = filepath.Join(dir, "echo-plugin")
	if err := clitest.BuildCommands(map[string]string{
		"github.com/plinth-iac/plinth/cmd/pulumi-resource-plinth":               pluginBinary,
		"github.com/plinth-iac/plinth/e2e/pulumi/internal/pulumi-resource-echo": filepath.Join(echoDir, "pulumi-resource-echo"),
	}); err != nil {
		return 0, err
	}
	if testBinary, err = os.Executable(); err == nil {
		testBinary, err = filepath.EvalSymlinks(testBinary)
	}
	if err != nil {
		return 0, fmt.Errorf("finding the test binary: %w", err)
	}
	return pgtest.Main(m), nil
}

// mode is one way of running the built-in package: in process, or out of
// process through the plugin.
type mode struct {
	name string
	// pluginPath is PLINTH_PLUGIN_PATH: "" leaves only the built-in.
	pluginPath string
	// server is the binary that must serve the package's resources.
	server string
}

func inProcess() mode { return mode{name: "in-process", server: testBinary} }
func outOfProcess() mode {
	return mode{name: "plugin", pluginPath: pluginDir, server: pluginBinary}
}

// fixedClock and oneAndAHalf make output deterministic: a clock that never
// moves and every finished step taking 1.5s.
var fixedClock = func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) }

func oneAndAHalf(e *engine.Event) {
	if e.Kind == engine.EventStepDone {
		e.Duration = 1500 * time.Millisecond
	}
}

// project is a copy of a testdata program run in one mode, with a plinth
// home and Pulumi home of its own so nothing outside the test is found.
type project struct {
	t    testing.TB
	dir  string
	mode mode
	opts clitest.Options
}

func newProject(t testing.TB, program string, m mode) *project {
	t.Helper()
	dir := clitest.CopyDir(t, filepath.Join("testdata", program))
	return &project{t: t, dir: dir, mode: m, opts: clitest.Options{
		Env:     m.env(t.TempDir()),
		Now:     fixedClock,
		Rewrite: oneAndAHalf,
	}}
}

// env is the environment of a command: homes under tmp, and the plugin
// path when the mode has one.
func (m mode) env(tmp string) map[string]string {
	env := map[string]string{
		"PLINTH_HOME": filepath.Join(tmp, "plinth-home"),
		"PULUMI_HOME": filepath.Join(tmp, "pulumi-home"),
	}
	if m.pluginPath != "" {
		env["PLINTH_PLUGIN_PATH"] = m.pluginPath
	}
	return env
}

// run runs a command that must succeed.
func (p *project) run(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.MustRun(p.t, p.dir, p.opts, args...)
}

// try runs a command that may fail.
func (p *project) try(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.Run(p.t, p.dir, p.opts, args...)
}

// path is a file of the project.
func (p *project) path(rel string) string { return filepath.Join(p.dir, rel) }

func (p *project) readFile(rel string) string {
	p.t.Helper()
	data, err := os.ReadFile(p.path(rel))
	if err != nil {
		p.t.Fatal(err)
	}
	return string(data)
}

func (p *project) writeFile(rel, content string) {
	p.t.Helper()
	if err := os.WriteFile(p.path(rel), []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}
