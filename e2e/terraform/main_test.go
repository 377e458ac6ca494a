package terraform

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

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
		linked, buildErr = tfproviders.LinkCached(pluginDir, realProviders...)
	}
	return m.Run()
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
