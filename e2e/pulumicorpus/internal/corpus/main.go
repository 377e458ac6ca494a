//go:build unix

package corpus

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/modbuild"
)

// record rewrites the up and edit expectations of the programs run from
// what the real pulumi CLI does with them.
var record = flag.Bool("record", false, "run each program under the pulumi CLI and rewrite expect.json's up and edit from what it did")

// hostsEnv names a directory of language hosts built locally, for
// recording programs whose host the Go module proxy does not serve.
const hostsEnv = "PLINTH_CORPUS_HOSTS"

// passphrase seals the secrets of both tools: the programs' Pulumi.dev.yaml
// files were written with it.
const passphrase = "plinth corpus passphrase"

// Set by TestMain: the directory holding pulumi-resource-plinth, the
// pulumi CLI ("" with cliMissing saying why).
var (
	pluginDir  string
	pulumiCLI  string
	cliMissing string
)

// root is e2e/pulumicorpus, holding testdata (dataDir) and the shared
// Node.js package; set by Main.
var root, dataDir string

// Main is the TestMain of a package of the corpus's tests: root is the
// path of e2e/pulumicorpus from the package's directory. It builds what
// every program needs, runs the tests and returns the exit code.
func Main(m *testing.M, rootDir string) int {
	abs, err := filepath.Abs(rootDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	root, dataDir = abs, filepath.Join(abs, "testdata")
	code, err := setUp(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return code
}

func setUp(m *testing.M) (int, error) {
	flag.Parse()
	if testing.Short() {
		return m.Run(), nil // every program needs a language host and the plugin
	}
	if cli, err := modbuild.PulumiCLI(context.Background(), filepath.Join(root, "..", "pulumicli", "testdata", "climodule")); err != nil {
		cliMissing = err.Error()
	} else {
		pulumiCLI = cli
	}
	dir, err := os.MkdirTemp("", "e2e-pulumicorpus")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	pluginDir = filepath.Join(dir, "plugins")
	binaries := map[string]string{}
	for name, pkg := range plugins {
		binaries[pkg] = filepath.Join(pluginDir, name)
	}
	if err := clitest.BuildCommands(binaries); err != nil {
		return 0, err
	}
	return m.Run(), nil
}

// plugins are the provider plugins the programs use, built into pluginDir:
// plinth's built-in providers, and e2e/component's component provider
// (comp:index:Site, a remote component the yaml-remote program uses).
var plugins = map[string]string{
	"pulumi-resource-plinth": "github.com/plinth-iac/plinth/cmd/pulumi-resource-plinth",
	"pulumi-resource-comp":   "github.com/plinth-iac/plinth/e2e/component/internal/pulumi-resource-comp",
}
