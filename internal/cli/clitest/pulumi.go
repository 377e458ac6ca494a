package clitest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
)

// PulumiCLI finds the real pulumi CLI for tests that compare plinth with
// it: $PLINTH_PULUMI_CLI, else pulumi on PATH, else the one e2e/pulumicli
// built into the user cache (<cache>/plinth/pulumi-cli/<version>/pulumi).
// The error says how to provide one.
func PulumiCLI() (string, error) {
	if p := os.Getenv("PLINTH_PULUMI_CLI"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", err
		}
		return p, nil
	}
	if p, err := exec.LookPath("pulumi"); err == nil {
		return p, nil
	}
	if base, err := os.UserCacheDir(); err == nil {
		found, _ := filepath.Glob(filepath.Join(base, "plinth", "pulumi-cli", "*", "pulumi"))
		if len(found) > 0 {
			return found[len(found)-1], nil
		}
	}
	return "", errors.New("no pulumi CLI: set PLINTH_PULUMI_CLI, put pulumi on PATH, or run the tests of e2e/pulumicli once, which build it into the user cache")
}
