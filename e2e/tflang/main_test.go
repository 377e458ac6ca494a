package tflang

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/plinth-iac/plinth/internal/tfproviders"
)

// realProviders are the providers the configurations use.
var realProviders = []string{"local", "random", "time", "tls"}

var (
	pluginDir string
	linked    map[string]string
	buildErr  error
)

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	root, err := os.MkdirTemp("", "plinth-e2e-tflang-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(root)
	pluginDir = filepath.Join(root, "plugins")
	if !testing.Short() {
		linked, buildErr = tfproviders.LinkCached(pluginDir, realProviders...)
	}
	return m.Run()
}

// needReal skips in -short mode and fails if the providers were not built.
func needReal(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("real Terraform providers are not built in -short mode")
	}
	if len(linked) != len(realProviders) {
		t.Fatalf("the real Terraform providers were not all built: %v", buildErr)
	}
}
