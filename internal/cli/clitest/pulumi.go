package clitest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/plinth-iac/plinth/internal/modbuild"
)

// PulumiCLIVersion is the version of github.com/pulumi/pulumi/pkg/v3 that
// BuildPulumiCLI builds, pinned by e2e/pulumicli/testdata/climodule (its
// go.mod and go.sum are `go mod tidy` of a module requiring it).
const PulumiCLIVersion = "v3.259.0"

// providePulumi says how to give the tests a pulumi CLI.
const providePulumi = "set PLINTH_PULUMI_CLI to a pulumi binary, or put `pulumi` on PATH"

// PulumiCLI finds the real pulumi CLI for tests that compare plinth with
// it, without building one: $PLINTH_PULUMI_CLI, else pulumi on PATH, else
// the one BuildPulumiCLI built into the user cache. The error says how to
// provide one.
func PulumiCLI() (string, error) {
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

// BuildPulumiCLI returns $PLINTH_PULUMI_CLI, else pulumi on PATH, else
// the CLI built (once per machine, under a file lock) from the Go module
// proxy into <user cache dir>/plinth/pulumi-cli/<PulumiCLIVersion>, from
// the module in moduleDir (e2e/pulumicli/testdata/climodule).
func BuildPulumiCLI(moduleDir string) (string, error) {
	if p, ok, err := givenPulumiCLI(); ok || err != nil {
		return p, err
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory to build the pulumi CLI in (%v): %s", err, providePulumi)
	}
	mod, err := modbuild.ReadModule(moduleDir, "go.mod", "go.sum", "tools.go")
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	bin, err := modbuild.Cached(ctx, modbuild.Spec{
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
