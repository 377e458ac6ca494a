package clitest

import (
	"fmt"
	"os"
	"os/exec"
	"sort"
)

// BuildCommands builds each Go main package of binaries (its import path)
// to its output path with `go build`, the compiler's output on standard
// error: the plugins a test package's TestMain puts on
// PLINTH_PLUGIN_PATH. The error names the package that did not build.
func BuildCommands(binaries map[string]string) error {
	pkgs := make([]string, 0, len(binaries))
	for pkg := range binaries {
		pkgs = append(pkgs, pkg)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		build := exec.Command("go", "build", "-o", binaries[pkg], pkg)
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building %s: %w", pkg, err)
		}
	}
	return nil
}
