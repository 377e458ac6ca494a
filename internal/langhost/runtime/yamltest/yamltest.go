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
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/modbuild"
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
		if !modbuild.IsFile(p) {
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
	mod := map[string][]byte{}
	for _, f := range []string{"go.mod", "go.sum", "tools.go"} {
		data, err := module.ReadFile("module/" + f + ".txt")
		if err != nil {
			return "", err
		}
		mod[f] = data
	}
	bin, err := modbuild.Cached(ctx, modbuild.Spec{
		Name: "pulumi-language-yaml", Version: Version,
		Dir: filepath.Join(base, "plinth", "pulumi-language-yaml", Version), Binary: File,
		Package: "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
		LDFlags: "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=" + Version,
		Module:  mod,
	})
	if err != nil {
		return "", fmt.Errorf("%v\n%s", err, provide)
	}
	return bin, nil
}
