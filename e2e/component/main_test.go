package component_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// pluginDir holds pulumi-resource-comp, built by TestMain; it is what
// PLINTH_PLUGIN_PATH names.
var pluginDir string

func TestMain(m *testing.M) {
	code, err := buildAndRun(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(code)
}

func buildAndRun(m *testing.M) (int, error) {
	dir, err := os.MkdirTemp("", "e2e-component")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	pluginDir = filepath.Join(dir, "plugins")
	if err := clitest.BuildCommands(map[string]string{"github.com/plinth-iac/plinth/e2e/component/internal/pulumi-resource-comp": filepath.Join(pluginDir, "pulumi-resource-comp")}); err != nil {
		return 0, err
	}
	return m.Run(), nil
}

// project is a program directory with a plinth home of its own.
type project struct {
	t    *testing.T
	dir  string
	opts clitest.Options
}

func newProject(t *testing.T) *project {
	tmp := t.TempDir()
	return &project{t: t, dir: t.TempDir(), opts: clitest.Options{Env: map[string]string{
		"PLINTH_HOME":        filepath.Join(tmp, "plinth-home"),
		"PULUMI_HOME":        filepath.Join(tmp, "pulumi-home"),
		"PLINTH_PLUGIN_PATH": pluginDir,
	}}}
}

// program writes plinth.yaml.
func (p *project) program(text string) {
	p.t.Helper()
	if err := os.WriteFile(filepath.Join(p.dir, "plinth.yaml"), []byte(text), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

func (p *project) run(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.MustRun(p.t, p.dir, p.opts, args...)
}

func (p *project) try(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.Run(p.t, p.dir, p.opts, args...)
}
