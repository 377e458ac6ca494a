package terraform

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/tfproviders"
)

// realProviders are the real Terraform providers the tests drive. null is
// not among them: the module proxy refuses its pinned version, so
// time_static with triggers stands in for null_resource.
var realProviders = []string{"local", "random", "time", "tls"}

// The plugin directories every test shares, made once by TestMain.
var (
	// pluginDir holds the real providers under their versioned names
	// (terraform-provider-random_v3.9.0, ...); buildErr says why some are
	// missing.
	pluginDir string
	linked    map[string]string
	buildErr  error
	// fakeDir holds this test binary under the names of the fake
	// providers (terraform-provider-crash_v1.0.0, ...).
	fakeDir string
)

func TestMain(m *testing.M) {
	if mode, ok := fakeMode(os.Args[0]); ok {
		serveFake(mode) // go-plugin started this binary as a fake provider
		return
	}
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	root, err := os.MkdirTemp("", "plinth-e2e-terraform-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(root)
	pluginDir, fakeDir = filepath.Join(root, "plugins"), filepath.Join(root, "fakes")
	if err := linkFakes(fakeDir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if !testing.Short() {
		linked, buildErr = buildReal(pluginDir)
	}
	return m.Run()
}

// buildReal builds (or finds in the cache) the real providers once and
// links them into dir.
func buildReal(dir string) (map[string]string, error) {
	cache, err := tfproviders.DefaultDir()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	return tfproviders.LinkInto(ctx, cache, dir, realProviders...)
}

// needReal skips a test in -short mode and fails it if the real providers
// could not be built.
func needReal(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("real Terraform providers are not built in -short mode")
	}
	if len(linked) != len(realProviders) {
		t.Fatalf("the real Terraform providers were not all built: %v", buildErr)
	}
}

// project is a copy of a testdata program that a test drives through the
// command line.
type project struct {
	t    *testing.T
	dir  string
	opts clitest.Options
}

// newProject copies testdata/<scenario> into a fresh directory. Plugins
// are looked for in plugins (and in directories of the test's own, so
// that nothing installed on the machine is found).
func newProject(t *testing.T, scenario, plugins string) *project {
	t.Helper()
	return &project{t: t, dir: clitest.CopyDir(t, filepath.Join("testdata", scenario)), opts: clitest.Options{
		Env: map[string]string{
			"PLINTH_PLUGIN_PATH": plugins,
			"PLINTH_HOME":        t.TempDir(),
			"PULUMI_HOME":        t.TempDir(),
		},
	}}
}

// realProject is a project whose program uses the real providers.
func realProject(t *testing.T, scenario string) *project {
	t.Helper()
	needReal(t)
	return newProject(t, scenario, pluginDir)
}

// run runs a plinth command in the project.
func (p *project) run(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.Run(p.t, p.dir, p.opts, args...)
}

// must runs a plinth command that must succeed.
func (p *project) must(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.MustRun(p.t, p.dir, p.opts, args...)
}

// path is a file of the project.
func (p *project) path(rel string) string { return filepath.Join(p.dir, filepath.FromSlash(rel)) }

// read returns a file of the project.
func (p *project) read(rel string) string {
	p.t.Helper()
	b, err := os.ReadFile(p.path(rel))
	if err != nil {
		p.t.Fatal(err)
	}
	return string(b)
}

// write replaces a file of the project.
func (p *project) write(rel, content string) {
	p.t.Helper()
	if err := os.MkdirAll(filepath.Dir(p.path(rel)), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(p.path(rel), []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// edit replaces old with new in the program.
func (p *project) edit(old, new string) {
	p.t.Helper()
	clitest.Edit(p.t, p.dir, "plinth.yaml", old, new)
}

// output reads one stack output as plinth prints it for scripts.
func (p *project) output(name string, flags ...string) string {
	p.t.Helper()
	return strings.TrimSpace(p.must(append([]string{"stack", "output", name}, flags...)...).Stdout)
}

// preview runs preview --detailed-exitcode and returns its exit code and
// step lines.
func (p *project) preview() (int, []string, clitest.Result) {
	p.t.Helper()
	r := p.run("preview", "--detailed-exitcode")
	if r.Code == 1 {
		p.t.Fatalf("preview failed:\n%s", r.Output())
	}
	return r.Code, clitest.ChangeLines(r.Stdout), r
}

// noChanges checks that a preview finds nothing to do.
func (p *project) noChanges(when string) {
	p.t.Helper()
	if code, lines, r := p.preview(); code != 0 {
		p.t.Errorf("%s: preview found changes %q, want none\n%s", when, lines, r.Stdout)
	}
}

// exists says whether a file of the project exists.
func (p *project) exists(rel string) bool {
	_, err := os.Stat(p.path(rel))
	return err == nil
}
