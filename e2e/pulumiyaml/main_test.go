//go:build unix

package pulumiyaml_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/langhost/runtime/yamltest"
)

// Set by TestMain: the directory holding pulumi-resource-plinth, and the
// one holding pulumi-language-yaml ("" with hostMissing saying why).
var (
	pluginDir   string
	hostDir     string
	hostMissing string
)

func TestMain(m *testing.M) {
	code, err := setUp(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(code)
}

func setUp(m *testing.M) (int, error) {
	flag.Parse()
	if testing.Short() && os.Getenv(yamltest.EnvVar) == "" {
		hostMissing = "-short: these tests need pulumi-language-yaml, which may have to be built from the Go module proxy; set " + yamltest.EnvVar + " to one"
	} else if host, err := yamltest.Build(context.Background()); err != nil {
		hostMissing = err.Error()
	} else {
		hostDir = filepath.Dir(host)
	}
	dir, err := os.MkdirTemp("", "e2e-pulumiyaml")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	pluginDir = filepath.Join(dir, "plugins")
	if hostDir != "" {
		if err := clitest.BuildCommands(map[string]string{"github.com/plinth-iac/plinth/cmd/pulumi-resource-plinth": filepath.Join(pluginDir, "pulumi-resource-plinth")}); err != nil {
			return 0, err
		}
	}
	return m.Run(), nil
}

// needHost skips the test when there is no pulumi-language-yaml.
func needHost(t *testing.T) {
	t.Helper()
	if hostMissing != "" {
		t.Skip(hostMissing)
	}
}

// project is a copy of a testdata program with homes of its own, the
// provider plugin on PLINTH_PLUGIN_PATH and the language host on PATH.
type project struct {
	t    *testing.T
	dir  string
	opts clitest.Options
}

func newProject(t *testing.T, program string) *project {
	t.Helper()
	needHost(t)
	tmp := t.TempDir()
	dir := clitest.CopyDir(t, filepath.Join("testdata", program))
	return &project{t: t, dir: dir, opts: clitest.Options{Env: map[string]string{
		"PLINTH_HOME":        filepath.Join(tmp, "plinth-home"),
		"PULUMI_HOME":        filepath.Join(tmp, "pulumi-home"),
		"PLINTH_PLUGIN_PATH": pluginDir,
		"PLINTH_PASSPHRASE":  "e2e passphrase",
		"PATH":               hostDir + string(os.PathListSeparator) + os.Getenv("PATH"),
	}}}
}

// run runs a plinth command that must succeed.
func (p *project) run(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.MustRun(p.t, p.dir, p.opts, args...)
}

// try runs a plinth command that may fail.
func (p *project) try(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.Run(p.t, p.dir, p.opts, args...)
}

// edit replaces old with new in the program.
func (p *project) edit(old, new string) {
	p.t.Helper()
	clitest.Edit(p.t, p.dir, "Pulumi.yaml", old, new)
}

func (p *project) readFile(rel string) string {
	p.t.Helper()
	data, err := os.ReadFile(filepath.Join(p.dir, rel))
	if err != nil {
		p.t.Fatal(err)
	}
	return string(data)
}

// summary is the last "Resources:" block of a command's output, as
// pulumi writes it, its lines joined ("+ 4 created").
func summary(t *testing.T, out string) string {
	t.Helper()
	s := clitest.PulumiResources(out)
	if s == "" {
		t.Fatalf("no Resources: block in:\n%s", out)
	}
	return s
}
