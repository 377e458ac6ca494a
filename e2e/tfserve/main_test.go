package tfserve

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bins holds the binaries TestMain builds: the plinth provider and the
// test provider in its two schema versions, each alone in a directory
// (as dev_overrides wants) and linked under a versioned name into a
// plugin directory (as plinth's PLINTH_PLUGIN_PATH wants).
var bins struct {
	root               string
	plinth             string // dir holding terraform-provider-plinth
	test0, test1       string // dirs holding terraform-provider-plinthtest, schema 0 and 1
	plugins0, plugins1 string // plinth plugin dirs: both providers, test provider schema 0 or 1
	err                error
}

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if testing.Short() {
		return m.Run()
	}
	root, err := os.MkdirTemp("", "plinth-e2e-tfserve-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(root)
	bins.root = root
	bins.err = build(root)
	return m.Run()
}

func build(root string) error {
	bins.plinth = filepath.Join(root, "plinth")
	bins.test0, bins.test1 = filepath.Join(root, "test0"), filepath.Join(root, "test1")
	steps := []struct{ out, pkg, ldflags string }{
		{filepath.Join(bins.plinth, "terraform-provider-plinth"), "./cmd/terraform-provider-plinth", ""},
		{filepath.Join(bins.test0, "terraform-provider-plinthtest"), "./e2e/tfserve/internal/terraform-provider-plinthtest", "-X main.schema=0"},
		{filepath.Join(bins.test1, "terraform-provider-plinthtest"), "./e2e/tfserve/internal/terraform-provider-plinthtest", "-X main.schema=1"},
	}
	for _, s := range steps {
		cmd := exec.Command("go", "build", "-ldflags", s.ldflags, "-o", s.out, s.pkg)
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", s.pkg, err, out)
		}
	}
	var err error
	if bins.plugins0, err = pluginDir(root, "plugins0", bins.test0); err != nil {
		return err
	}
	bins.plugins1, err = pluginDir(root, "plugins1", bins.test1)
	return err
}

// pluginDir links both providers into a plinth plugin directory under
// their versioned names.
func pluginDir(root, name, testDir string) (string, error) {
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	links := map[string]string{
		filepath.Join(bins.plinth, "terraform-provider-plinth"): "terraform-provider-plinth_v0.1.0",
		filepath.Join(testDir, "terraform-provider-plinthtest"): "terraform-provider-plinthtest_v1.0.0",
	}
	for target, link := range links {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// needBinaries skips in -short mode and fails if the build failed.
func needBinaries(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("provider binaries are not built in -short mode")
	}
	if bins.err != nil {
		t.Fatalf("building the provider binaries: %v", bins.err)
	}
}

// tf is a terraform working directory whose CLI configuration takes
// plinth-iac/plinth and plinth-iac/plinthtest from the built binaries.
type tf struct {
	t        testing.TB
	bin, dir string
	env      []string
}

func lookTerraform() (string, error) { return exec.LookPath("terraform") }

// newTF makes a terraform working directory serving protocol (5 or 6),
// with the test provider of testDir. It skips when terraform is absent.
func newTF(t *testing.T, protocol int, testDir string) *tf {
	t.Helper()
	needBinaries(t)
	bin, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping the tests that drive plinth's provider with terraform (install terraform 1.11 to run them)")
	}
	w := &tf{t: t, bin: bin, dir: t.TempDir()}
	w.env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+w.overrides(testDir), "TF_IN_AUTOMATION=1", "TF_INPUT=0",
		"CHECKPOINT_DISABLE=1", "TF_DATA_DIR="+filepath.Join(w.dir, ".terraform"), fmt.Sprintf("PLINTH_TF_PROTOCOL=%d", protocol))
	return w
}

// overrides writes the CLI configuration and returns its path.
func (w *tf) overrides(testDir string) string {
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n    %q = %q\n  }\n  direct {}\n}\n",
		"plinth-iac/plinth", bins.plinth, "plinth-iac/plinthtest", testDir)
	path := filepath.Join(w.dir, "terraformrc")
	if err := os.WriteFile(path, []byte(rc), 0o644); err != nil {
		w.t.Fatal(err)
	}
	return path
}

// useTestProvider points the CLI configuration at another build of the
// test provider.
func (w *tf) useTestProvider(testDir string) {
	w.overrides(testDir)
}

// write replaces a file in the working directory.
func (w *tf) write(name, content string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, name), []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// run runs terraform and returns its output and exit code.
func (w *tf) run(args ...string) (string, int) {
	w.t.Helper()
	full := args
	if args[0] != "providers" {
		full = append([]string{args[0], "-no-color"}, args[1:]...)
	}
	cmd := exec.Command(w.bin, full...)
	cmd.Dir, cmd.Env = w.dir, w.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	}
	if err != nil {
		w.t.Fatalf("terraform %v: %v", args, err)
	}
	return out.String(), 0
}

// must runs terraform and fails the test unless it exits 0.
func (w *tf) must(args ...string) string {
	w.t.Helper()
	out, code := w.run(args...)
	if code != 0 {
		w.t.Fatalf("terraform %s exited %d:\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// planCode runs plan -detailed-exitcode: 0 no changes, 2 changes.
func (w *tf) planCode() (string, int) {
	w.t.Helper()
	return w.run("plan", "-detailed-exitcode")
}
