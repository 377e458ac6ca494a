package modbuild

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// PulumiCLIVersion is the version of github.com/pulumi/pulumi/pkg/v3 that
// PulumiCLI builds, pinned by e2e/pulumicli/testdata/climodule (its go.mod
// and go.sum are `go mod tidy` of a module requiring it).
const PulumiCLIVersion = "v3.259.0"

// providePulumi says how to give the tests and the benchmarks a pulumi CLI.
const providePulumi = "set PLINTH_PULUMI_CLI to a pulumi binary, or put `pulumi` on PATH"

// FindPulumiCLI finds the real pulumi CLI without building one:
// $PLINTH_PULUMI_CLI, else pulumi on PATH, else one PulumiCLI built into
// the user cache. The error says how to provide one.
func FindPulumiCLI() (string, error) {
	if p, ok, err := givenPulumiCLI(); ok || err != nil {
		return p, err
	}
	if base, err := os.UserCacheDir(); err == nil {
		found, _ := filepath.Glob(filepath.Join(base, "plinth", "pulumi-cli", "*", "pulumi"))
		if len(found) > 0 {
			return found[len(found)-1], nil
		}
	}
	return "", errors.New("no pulumi CLI: set PLINTH_PULUMI_CLI, put pulumi on PATH, or run the tests of e2e/pulumicli once, which build it into the user cache")
}

// PulumiCLI returns $PLINTH_PULUMI_CLI, else pulumi on PATH, else the CLI
// built (once per machine, under Cached's file lock) from the Go module
// proxy into <user cache dir>/plinth/pulumi-cli/<PulumiCLIVersion>, from
// the module in moduleDir (e2e/pulumicli/testdata/climodule).
func PulumiCLI(ctx context.Context, moduleDir string) (string, error) {
	if p, ok, err := givenPulumiCLI(); ok || err != nil {
		return p, err
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory to build the pulumi CLI in (%v): %s", err, providePulumi)
	}
	mod, err := ReadModule(moduleDir, "go.mod", "go.sum", "tools.go")
	if err != nil {
		return "", err
	}
	bin, err := Cached(ctx, Spec{
		Name: "the pulumi CLI", Version: PulumiCLIVersion, Binary: "pulumi",
		Dir:     filepath.Join(base, "plinth", "pulumi-cli", PulumiCLIVersion),
		Package: "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi", Module: mod,
	})
	if err != nil {
		return "", fmt.Errorf("%v\n%s", err, providePulumi)
	}
	return bin, nil
}

// givenPulumiCLI is $PLINTH_PULUMI_CLI or pulumi on PATH, if either is
// there.
func givenPulumiCLI() (string, bool, error) {
	if p := os.Getenv("PLINTH_PULUMI_CLI"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", false, fmt.Errorf("PLINTH_PULUMI_CLI=%s: %v", p, err)
		}
		return p, true, nil
	}
	if p, err := exec.LookPath("pulumi"); err == nil {
		return p, true, nil
	}
	return "", false, nil
}
