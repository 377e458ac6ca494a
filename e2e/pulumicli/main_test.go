//go:build unix

package pulumicli_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/modbuild"
)

// CLIVersion is the version of github.com/pulumi/pulumi/pkg/v3 the tests
// build the CLI from when none is given: testdata/climodule pins it (its
// go.mod and go.sum are `go mod tidy` of a module requiring it).
const CLIVersion = "v3.259.0"

// provide says how to give the tests a pulumi CLI.
const provide = "set PLINTH_PULUMI_CLI to a pulumi binary, or put `pulumi` on PATH"

// pulumiCLI is the CLI the tests run; skipWhy, if set, is why there is none.
var pulumiCLI, skipWhy string

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		skipWhy = "-short: these tests need the pulumi CLI, which may have to be built"
	} else {
		var err error
		if pulumiCLI, err = findCLI(); err != nil {
			skipWhy = err.Error()
		}
	}
	os.Exit(m.Run())
}

// needCLI skips the test when there is no pulumi CLI.
func needCLI(t *testing.T) string {
	t.Helper()
	if skipWhy != "" {
		t.Skip(skipWhy)
	}
	return pulumiCLI
}

// findCLI returns $PLINTH_PULUMI_CLI, else pulumi on PATH, else the CLI
// built (once) into the cache.
func findCLI() (string, error) {
	if p := os.Getenv("PLINTH_PULUMI_CLI"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("PLINTH_PULUMI_CLI=%s: %v", p, err)
		}
		return p, nil
	}
	if p, err := exec.LookPath("pulumi"); err == nil {
		return p, nil
	}
	dir, err := cacheDir()
	if err != nil {
		return "", err
	}
	mod, err := modbuild.ReadModule(filepath.Join("testdata", "climodule"), "go.mod", "go.sum", "tools.go")
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	bin, err := modbuild.Cached(ctx, modbuild.Spec{
		Name: "the pulumi CLI", Version: CLIVersion, Dir: dir, Binary: "pulumi",
		Package: "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi", Module: mod,
	})
	if err != nil {
		return "", fmt.Errorf("%v\n%s", err, provide)
	}
	return bin, nil
}

// cacheDir is <user cache dir>/plinth/pulumi-cli/<CLIVersion>.
func cacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory to build the pulumi CLI in (%v): %s", err, provide)
	}
	return filepath.Join(base, "plinth", "pulumi-cli", CLIVersion), nil
}
