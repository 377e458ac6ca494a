//go:build unix

package pulumicli_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	return buildCached(ctx, dir)
}

// cacheDir is <user cache dir>/plinth/pulumi-cli/<CLIVersion>.
func cacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory to build the pulumi CLI in (%v): %s", err, provide)
	}
	return filepath.Join(base, "plinth", "pulumi-cli", CLIVersion), nil
}

// buildCached returns dir/pulumi, building it first under dir/lock unless
// it is there: a test binary that waits on the lock finds it built.
func buildCached(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "pulumi")
	if isFile(bin) {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("cannot make %s to build the pulumi CLI in (%v): %s", dir, err, provide)
	}
	unlock, err := lock(filepath.Join(dir, "lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if isFile(bin) {
		return bin, nil
	}
	start := time.Now()
	fmt.Fprintf(os.Stderr, "building the pulumi CLI %s from the Go module proxy into %s (once; several minutes)\n", CLIVersion, dir)
	if err := build(ctx, dir, bin); err != nil {
		return "", fmt.Errorf("the pulumi CLI %s could not be built from the Go module proxy (offline, or the proxy refuses it): %v\n%s",
			CLIVersion, err, provide)
	}
	fmt.Fprintf(os.Stderr, "built the pulumi CLI in %s\n", time.Since(start).Round(time.Second))
	return bin, nil
}

// build copies testdata/climodule to a scratch directory and runs go
// build there, renaming the binary into place only when it is whole.
func build(ctx context.Context, dir, bin string) error {
	scratch, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	for _, f := range []string{"go.mod", "go.sum", "tools.go"} {
		data, err := os.ReadFile(filepath.Join("testdata", "climodule", f))
		if err == nil {
			err = os.WriteFile(filepath.Join(scratch, f), data, 0o644)
		}
		if err != nil {
			return err
		}
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(scratch, "pulumi"), "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi")
	cmd.Dir = scratch
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %w\n%s", err, lastLines(string(out), 20))
	}
	return os.Rename(filepath.Join(scratch, "pulumi"), bin)
}

// lock takes an exclusive flock on path, waiting for it.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot lock %s to build the pulumi CLI: %v", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot lock %s to build the pulumi CLI: %v", path, err)
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
