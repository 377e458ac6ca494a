//go:build unix

// Package yamltest gives tests Pulumi's YAML language host,
// pulumi-language-yaml, so that they can run Pulumi YAML programs under
// plinth (through internal/langhost/runtime) or under the pulumi CLI.
//
// The binary is $PLINTH_PULUMI_LANGUAGE_YAML if set, else built once per
// machine from the Go module proxy (github.com/pulumi/pulumi-yaml at
// Version, pinned by the go.mod and go.sum embedded from module/, which
// are `go mod tidy` of a module requiring it) into
// <user cache dir>/plinth/pulumi-language-yaml/<Version>/, under a file
// lock so that test binaries running in parallel build it once. The first
// build takes a few minutes; later ones find it in place.
//
// Use Binary in a test (it skips the test, saying how to provide the
// binary, when there is none or with -short), or Build where a skip is
// not wanted (a benchmark harness, TestMain). Dir gives the directory to
// put on PATH, as the pulumi CLI and plinth both find language hosts
// there. Unix only: the build lock is flock.
package yamltest

import (
	"context"
	"embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Version is the version of github.com/pulumi/pulumi-yaml built.
const Version = "v1.25.0"

// EnvVar names a pulumi-language-yaml to use instead of building one.
const EnvVar = "PLINTH_PULUMI_LANGUAGE_YAML"

// File is the binary's name.
const File = "pulumi-language-yaml"

//go:embed module/go.mod.txt module/go.sum.txt module/tools.go.txt
var module embed.FS

// provide says how to give the tests the binary.
const provide = "set " + EnvVar + " to a pulumi-language-yaml binary"

var (
	once     sync.Once
	built    string
	buildErr error
)

// Binary returns the path of pulumi-language-yaml, skipping the test
// (saying why and how to provide one) with -short or when it can be
// neither found nor built.
func Binary(t testing.TB) string {
	t.Helper()
	if os.Getenv(EnvVar) == "" && testing.Short() {
		t.Skip("-short: this test needs pulumi-language-yaml, which may have to be built from the Go module proxy; " + provide)
	}
	path, err := Build(context.Background())
	if err != nil {
		t.Skip(err.Error())
	}
	return path
}

// Dir returns the directory holding Binary's binary, for PATH.
func Dir(t testing.TB) string {
	t.Helper()
	return filepath.Dir(Binary(t))
}

// Build returns the path of pulumi-language-yaml: $PLINTH_PULUMI_LANGUAGE_YAML,
// else the cached build, built first if need be. It builds at most once
// per process.
func Build(ctx context.Context) (string, error) {
	once.Do(func() { built, buildErr = find(ctx) })
	return built, buildErr
}

func find(ctx context.Context) (string, error) {
	if p := os.Getenv(EnvVar); p != "" {
		if !isFile(p) {
			return "", fmt.Errorf("%s=%s is not a file", EnvVar, p)
		}
		return p, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory to build pulumi-language-yaml in (%v): %s", err, provide)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	defer cancel()
	return buildCached(ctx, filepath.Join(base, "plinth", "pulumi-language-yaml", Version))
}

// buildCached returns dir/pulumi-language-yaml, building it first under
// dir/lock unless it is there: a test binary that waited on the lock
// finds it built.
func buildCached(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, File)
	if isFile(bin) {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("cannot make %s to build pulumi-language-yaml in (%v): %s", dir, err, provide)
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
	fmt.Fprintf(os.Stderr, "building pulumi-language-yaml %s from the Go module proxy into %s (once; a few minutes)\n", Version, dir)
	if err := build(ctx, dir, bin); err != nil {
		return "", fmt.Errorf("pulumi-language-yaml %s could not be built from the Go module proxy (offline, or the proxy refuses it): %v\n%s", Version, err, provide)
	}
	fmt.Fprintf(os.Stderr, "built pulumi-language-yaml in %s\n", time.Since(start).Round(time.Second))
	return bin, nil
}

// build writes the embedded module to a scratch directory and runs go
// build there, renaming the binary into place only when it is whole.
func build(ctx context.Context, dir, bin string) error {
	scratch, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	for _, f := range []string{"go.mod", "go.sum", "tools.go"} {
		data, err := module.ReadFile("module/" + f + ".txt")
		if err == nil {
			err = os.WriteFile(filepath.Join(scratch, f), data, 0o644)
		}
		if err != nil {
			return err
		}
	}
	out := filepath.Join(scratch, File)
	// The version is set as pulumi-yaml's own build sets it, so that
	// GetPluginInfo reports it.
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out,
		"-ldflags", "-X github.com/pulumi/pulumi-yaml/pkg/version.Version="+Version, "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml")
	cmd.Dir = scratch
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %w\n%s", err, lastLines(string(msg), 20))
	}
	return os.Rename(out, bin)
}

// lock takes an exclusive flock on path, waiting for it.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot lock %s to build pulumi-language-yaml: %v", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot lock %s to build pulumi-language-yaml: %v", path, err)
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
