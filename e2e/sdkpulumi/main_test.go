//go:build unix

package sdkpulumi_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/langhost/runtime/yamltest"
)

// Set by TestMain: the directories holding pulumi-resource-example and
// pulumi-language-yaml, and the pulumi CLI; skipWhy says why the tests
// cannot run when it is not empty.
var (
	pluginDir string
	hostDir   string
	cliPath   string
	skipWhy   string
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
	if skipWhy = findTools(); skipWhy != "" {
		return m.Run(), nil
	}
	dir, err := os.MkdirTemp("", "e2e-sdkpulumi")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	pluginDir = dir
	if err := clitest.BuildCommands(map[string]string{"github.com/plinth-iac/plinth/examples/provider/cmd/pulumi-resource-example": filepath.Join(pluginDir, "pulumi-resource-example")}); err != nil {
		return 0, err
	}
	return m.Run(), nil
}

// findTools sets hostDir and cliPath, or returns why it cannot.
func findTools() string {
	if testing.Short() {
		return "-short: these tests need the pulumi CLI and pulumi-language-yaml, which may have to be built"
	}
	host, err := yamltest.Build(context.Background())
	if err != nil {
		return err.Error()
	}
	hostDir = filepath.Dir(host)
	if cliPath = findCLI(); cliPath == "" {
		return "no pulumi CLI: set PLINTH_PULUMI_CLI, put pulumi on PATH, or run the tests of e2e/pulumicli once, which build it into the user cache"
	}
	return ""
}

// findCLI returns $PLINTH_PULUMI_CLI, pulumi on PATH, or the one
// e2e/pulumicli built into the user cache, or "".
func findCLI() string {
	if p := os.Getenv("PLINTH_PULUMI_CLI"); p != "" {
		return p
	}
	if p, err := exec.LookPath("pulumi"); err == nil {
		return p
	}
	if base, err := os.UserCacheDir(); err == nil {
		found, _ := filepath.Glob(filepath.Join(base, "plinth", "pulumi-cli", "*", "pulumi"))
		if len(found) > 0 {
			return found[len(found)-1]
		}
	}
	return ""
}

// stack is a copy of a testdata program with a stack "dev" on a file
// backend, a PULUMI_HOME of its own, the provider plugin and the language
// host on PATH, and a directory for the example's records.
type stack struct {
	t       *testing.T
	dir     string
	records string
	env     []string
}

func newStack(t *testing.T, program string) *stack {
	t.Helper()
	if skipWhy != "" {
		t.Skip(skipWhy)
	}
	tmp := t.TempDir()
	backend := filepath.Join(tmp, "backend")
	records := filepath.Join(tmp, "records")
	for _, d := range []string{backend, records} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := &stack{t: t, dir: clitest.CopyDir(t, filepath.Join("testdata", program)), records: records, env: append(os.Environ(),
		"PULUMI_HOME="+filepath.Join(tmp, "pulumi-home"),
		"PULUMI_CONFIG_PASSPHRASE=e2e passphrase",
		"PULUMI_SKIP_UPDATE_CHECK=true",
		"PULUMI_DIY_BACKEND_NO_LEGACY_WARNING=true",
		"PATH="+pluginDir+string(os.PathListSeparator)+hostDir+string(os.PathListSeparator)+os.Getenv("PATH"),
	)}
	s.run("login", "file://"+backend)
	s.run("stack", "init", "dev")
	s.run("config", "set", "recordDir", records)
	return s
}

// run runs a pulumi command that must succeed and returns its stdout.
func (s *stack) run(args ...string) string {
	s.t.Helper()
	out, errOut, err := s.try(args...)
	if err != nil {
		s.t.Fatalf("pulumi %s: %v\n%s%s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

// try runs a pulumi command and returns its stdout, stderr and error.
func (s *stack) try(args ...string) (string, string, error) {
	s.t.Helper()
	cmd := exec.Command(cliPath, append(args, "--non-interactive")...)
	cmd.Dir, cmd.Env = s.dir, s.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// edit replaces old with new in the program.
func (s *stack) edit(old, new string) {
	s.t.Helper()
	clitest.Edit(s.t, s.dir, "Pulumi.yaml", old, new)
}
