package tfproviders

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Spec pins one provider: where its source comes from and which release it is.
type Spec struct {
	// Name is the provider's type name, as in terraform-provider-<Name>.
	Name string
	// Module and ModuleVersion are what "go install" fetches.
	Module        string
	ModuleVersion string
	// Version is the provider's own release number (without "v"), which
	// Terraform's registry and version constraints use.
	Version string
}

// Binary returns the file name of the built provider:
// terraform-provider-<name>_v<version>.
func (s Spec) Binary() string {
	return "terraform-provider-" + s.Name + "_v" + s.Version
}

// Specs returns the pinned providers, sorted by name. The Version of null is
// the release its pin should correspond to but is unverified: the module
// proxy refuses that module version ("not available"), so it cannot be built
// here today.
func Specs() []Spec {
	return []Spec{
		{"local", "github.com/terraform-providers/terraform-provider-local", "v1.4.1-0.20260806152022-9068a4b7aa37", "2.9.0"},
		{"null", "github.com/terraform-providers/terraform-provider-null", "v1.0.1-0.20260824155049-3827b35ad520", "3.2.4"},
		{"random", "github.com/terraform-providers/terraform-provider-random", "v1.3.2-0.20260824155315-e1092b0cfc07", "3.9.0"},
		{"time", "github.com/hashicorp/terraform-provider-time", "v0.14.1", "0.14.1"},
		{"tls", "github.com/hashicorp/terraform-provider-tls", "v1.2.1-0.20260819085117-d044ca7c6f52", "4.3.0"},
	}
}

// Lookup returns the pinned provider called name.
func Lookup(name string) (Spec, bool) {
	for _, s := range Specs() {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// DefaultDir is the cache directory: $PLINTH_TF_PROVIDERS_DIR if set, else
// <user cache dir>/plinth/tf-providers.
func DefaultDir() (string, error) {
	if d := os.Getenv("PLINTH_TF_PROVIDERS_DIR"); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding a cache directory for Terraform providers (set PLINTH_TF_PROVIDERS_DIR): %w", err)
	}
	return filepath.Join(base, "plinth", "tf-providers"), nil
}

// Path returns where the provider's binary is cached under dir:
// dir/<name>/<module version>/terraform-provider-<name>_v<version>.
func (s Spec) Path(dir string) string {
	return filepath.Join(dir, s.Name, s.ModuleVersion, s.Binary())
}

// Build returns the path of the provider's binary under dir, building it
// first unless it is already cached. Concurrent builds of the same provider
// (from several test processes) are harmless: each builds into its own
// scratch directory and the last rename wins.
func Build(ctx context.Context, dir string, s Spec) (string, error) {
	path := s.Path(dir)
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		return path, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("building Terraform provider %s: %w", s.Name, err)
	}
	scratch, err := os.MkdirTemp(filepath.Dir(path), "build-")
	if err != nil {
		return "", fmt.Errorf("building Terraform provider %s: %w", s.Name, err)
	}
	defer os.RemoveAll(scratch)
	if err := goInstall(ctx, scratch, s); err != nil {
		return "", err
	}
	built := filepath.Join(scratch, "terraform-provider-"+s.Name)
	if err := os.Rename(built, path); err != nil {
		return "", fmt.Errorf("building Terraform provider %s: %w", s.Name, err)
	}
	return path, nil
}

// goInstall runs "go install Module@ModuleVersion" with GOBIN=scratch, in
// scratch so that no enclosing go.mod or go.work applies.
func goInstall(ctx context.Context, scratch string, s Spec) error {
	cmd := exec.CommandContext(ctx, "go", "install", s.Module+"@"+s.ModuleVersion)
	cmd.Dir = scratch
	cmd.Env = append(os.Environ(),
		"GOBIN="+scratch,
		"GOWORK=off",
		"GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"),
		"GONOSUMDB="+joinNonEmpty(os.Getenv("GONOSUMDB"), s.Module),
	)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building Terraform provider %s with go install %s@%s: %w\n%s",
			s.Name, s.Module, s.ModuleVersion, err, strings.TrimSpace(out.String()))
	}
	return nil
}

func joinNonEmpty(list, item string) string {
	if list == "" {
		return item
	}
	return list + "," + item
}

// BuildAll builds (or finds) the named providers and returns their paths by
// name. It builds them all even if one fails, and reports every failure.
func BuildAll(ctx context.Context, dir string, names ...string) (map[string]string, error) {
	paths := map[string]string{}
	var errs []error
	for _, n := range names {
		s, ok := Lookup(n)
		if !ok {
			errs = append(errs, fmt.Errorf("no pinned Terraform provider is called %q", n))
			continue
		}
		p, err := Build(ctx, dir, s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		paths[n] = p
	}
	return paths, errors.Join(errs...)
}

// LinkInto builds (or finds) the named providers and links them, under
// their versioned names, into one flat directory, as a plugin search path
// holds them. It returns the linked paths by name.
func LinkInto(ctx context.Context, cacheDir, pluginDir string, names ...string) (map[string]string, error) {
	built, err := BuildAll(ctx, cacheDir, names...)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(pluginDir, 0o755); err != nil {
		return nil, fmt.Errorf("making plugin directory %s: %w", pluginDir, err)
	}
	linked := map[string]string{}
	for name, path := range built {
		dst := filepath.Join(pluginDir, filepath.Base(path))
		if err := os.Symlink(path, dst); err != nil && !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("linking Terraform provider %s into %s: %w", name, pluginDir, err)
		}
		linked[name] = dst
	}
	return linked, nil
}

// LinkCached is LinkInto with the default cache directory (DefaultDir),
// allowing twenty minutes for the builds: what tests use to put the real
// providers in a plugin directory.
func LinkCached(pluginDir string, names ...string) (map[string]string, error) {
	cache, err := DefaultDir()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	return LinkInto(ctx, cache, pluginDir, names...)
}
