// Package modbuild builds a Go command from a pinned module into a cache
// directory, once: the tests and the benchmark harness use it for the
// tools they compare plinth with (the pulumi CLI, pulumi-language-yaml),
// which the Go module proxy serves as source only. A build runs under a
// file lock in the cache directory, so test binaries started together
// build once and the others find the binary; the binary is renamed into
// place only when whole.
package modbuild

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Spec is one command to build.
type Spec struct {
	// Name and Version name it in progress lines and errors ("the pulumi
	// CLI", "v3.259.0").
	Name, Version string
	// Dir is the cache directory; the binary is Dir/Binary.
	Dir, Binary string
	// Package is the main package built ("github.com/pulumi/pulumi/pkg/v3/cmd/pulumi").
	Package string
	// Module holds the pinning module's files by name (go.mod, go.sum,
	// tools.go), written to a scratch directory the build runs in.
	Module map[string][]byte
	// LDFlags, when set, is passed to go build's -ldflags.
	LDFlags string
}

// Cached returns Dir/Binary, building it first unless it is there.
func Cached(ctx context.Context, s Spec) (string, error) {
	bin := filepath.Join(s.Dir, s.Binary)
	if IsFile(bin) {
		return bin, nil
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return "", fmt.Errorf("cannot make %s to build %s in: %v", s.Dir, s.Name, err)
	}
	unlock, err := lock(filepath.Join(s.Dir, "lock"))
	if err != nil {
		return "", fmt.Errorf("cannot lock %s to build %s: %v", s.Dir, s.Name, err)
	}
	defer unlock()
	if IsFile(bin) {
		return bin, nil
	}
	start := time.Now()
	fmt.Fprintf(os.Stderr, "building %s %s from the Go module proxy into %s (once; a few minutes)\n", s.Name, s.Version, s.Dir)
	if err := build(ctx, s, bin); err != nil {
		return "", fmt.Errorf("%s %s could not be built from the Go module proxy (offline, or the proxy refuses it): %v", s.Name, s.Version, err)
	}
	fmt.Fprintf(os.Stderr, "built %s in %s\n", s.Name, time.Since(start).Round(time.Second))
	return bin, nil
}

// build writes the module to a scratch directory under Dir, runs go
// build there and renames the binary to bin.
func build(ctx context.Context, s Spec, bin string) error {
	scratch, err := os.MkdirTemp(s.Dir, "build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	for name, data := range s.Module {
		if err := os.WriteFile(filepath.Join(scratch, name), data, 0o644); err != nil {
			return err
		}
	}
	out := filepath.Join(scratch, s.Binary)
	args := []string{"build", "-o", out}
	if s.LDFlags != "" {
		args = append(args, "-ldflags", s.LDFlags)
	}
	cmd := exec.CommandContext(ctx, "go", append(args, s.Package)...)
	cmd.Dir = scratch
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %w\n%s", err, lastLines(string(msg), 20))
	}
	return os.Rename(out, bin)
}

// ReadModule reads the named files of a pinning module from dir, for
// Spec.Module.
func ReadModule(dir string, names ...string) (map[string][]byte, error) {
	m := make(map[string][]byte, len(names))
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		m[n] = data
	}
	return m, nil
}

// lock takes an exclusive flock on path, waiting for it.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// IsFile reports whether p is a regular file.
func IsFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
