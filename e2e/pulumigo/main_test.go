package pulumigo_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// sdkModule is the Pulumi Go SDK the programs require.
const sdkModule = "github.com/pulumi/pulumi/sdk/v3"

// goProject is a copy of the test programs' module, one program of it
// run by plinth, with a plinth home of its own (where the program is
// built).
type goProject struct {
	clitest.Project        // the program's directory in root
	root            string // the module's copy
}

func newGoProject(t testing.TB, program string) *goProject {
	t.Helper()
	root := clitest.CopyDir(t, "testdata")
	return &goProject{root: root, Project: clitest.Project{T: t, Dir: filepath.Join(root, program), Opts: clitest.Options{Env: map[string]string{
		"PLINTH_PASSPHRASE": "correct horse",
		"PLINTH_HOME":       filepath.Join(t.TempDir(), "home"),
	}}}}
}

// output is one stack output as `plinth stack output NAME` prints it.
func (p *goProject) output(name string) string {
	p.T.Helper()
	return strings.Trim(strings.TrimSpace(p.Run("stack", "output", name).Stdout), `"`)
}

// urns lists the URNs the state records, sorted.
func (p *goProject) urns() []string {
	p.T.Helper()
	var urns []string
	for _, l := range strings.Split(p.Run("state", "ls").Stdout, "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.HasPrefix(f[0], "urn:") {
			urns = append(urns, f[0])
		}
	}
	sort.Strings(urns)
	return urns
}

// TestProgramsUseTheProjectsSDK: the test programs' module requires the
// Pulumi SDK at the project's version, so that it builds from the same
// module cache; bumping one without the other fails here.
func TestProgramsUseTheProjectsSDK(t *testing.T) {
	if got, want := requiredVersion(t, "testdata/go.mod"), requiredVersion(t, "../../go.mod"); got != want {
		t.Errorf("testdata/go.mod requires %s %s, the project %s; run `go get %s@%s && go mod tidy` in testdata", sdkModule, got, want, sdkModule, want)
	}
}

func requiredVersion(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse(path, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Require {
		if r.Mod.Path == sdkModule {
			return r.Mod.Version
		}
	}
	t.Fatalf("%s does not require %s", path, sdkModule)
	return ""
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// syncWriter collects a process's output for a failure message.
type syncWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
