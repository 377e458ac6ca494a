package install

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/plinth-iac/plinth/internal/install/lock"
)

// Requirement is what a configuration asks of one provider: its source
// address and its version constraints, every module's intersected
// (">= 3.0, ~> 3.6"; empty for any version).
type Requirement struct {
	Source      tfaddr.Provider
	Constraints string
}

// Installer installs providers into a configuration's
// .terraform/providers and keeps its lock file. It is not modified once
// used.
type Installer struct {
	// Dir is the configuration directory.
	Dir      string
	Registry *Registry
	// Platform is what packages are for; zero is this machine's.
	Platform Platform
	// Upgrade chooses the newest version the constraints allow even
	// where the lock file names another.
	Upgrade bool
	// Out gets terraform's progress lines; nil discards them.
	Out io.Writer
	// CacheDir, if set, is the shared plugin cache (TF_PLUGIN_CACHE_DIR,
	// plugin_cache_dir): packages are unpacked there, in the same layout,
	// and linked into the configuration; a cached package the lock
	// vouches for is used without asking the registry.
	CacheDir string
}

// Install installs every required provider and returns the new lock (it
// does not write it). lk is the current lock. A provider that fails is
// not installed and the first failure is returned.
func (in *Installer) Install(ctx context.Context, reqs []Requirement, lk *lock.File) (*lock.File, error) {
	sort.Slice(reqs, func(i, j int) bool { return reqs[i].Source.String() < reqs[j].Source.String() })
	next := &lock.File{Providers: map[string]lock.Provider{}}
	for _, rq := range reqs {
		entry, err := in.one(ctx, rq, lk.Providers[rq.Source.String()])
		if err != nil {
			return nil, err
		}
		next.Providers[entry.Address] = entry
	}
	return next, nil
}

func (in *Installer) platform() Platform {
	if in.Platform == (Platform{}) {
		return Platform{OS: runtime.GOOS, Arch: runtime.GOARCH}
	}
	return in.Platform
}

func (in *Installer) printf(format string, args ...any) {
	if in.Out != nil {
		fmt.Fprintf(in.Out, format, args...)
	}
}

// PackageDir is where a provider version for a platform is unpacked,
// under the configuration directory: terraform's
// .terraform/providers/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH.
func PackageDir(dir string, p tfaddr.Provider, v string, pl Platform) string {
	return filepath.Join(dir, ".terraform", "providers", p.Hostname.String(), p.Namespace, p.Type, v, pl.String())
}

// one installs one provider: chooses its version, reuses an installed
// package the lock vouches for, else downloads, verifies and unpacks one.
func (in *Installer) one(ctx context.Context, rq Requirement, locked lock.Provider) (lock.Provider, error) {
	v, base, err := in.choose(ctx, rq, locked)
	if err != nil {
		return lock.Provider{}, err
	}
	if locked.Version != v || in.Upgrade {
		locked = lock.Provider{} // -upgrade trusts the registry afresh, as terraform's does
	}
	entry := lock.Provider{Address: rq.Source.String(), Version: v, Constraints: rq.Constraints, Hashes: locked.Hashes}
	dst := PackageDir(in.Dir, rq.Source, v, in.platform())
	if h, err := lock.HashDir(dst); err == nil && locked.Has(h) {
		in.printf("- Using previously-installed %s v%s\n", rq.Source.ForDisplay(), v)
		return entry, nil
	}
	if ok, err := in.fromCache(rq.Source, v, dst, locked); ok || err != nil {
		return entry, err
	}
	if base == nil {
		if base, err = in.Registry.providersURL(ctx, rq.Source.Hostname.String()); err != nil {
			return lock.Provider{}, err
		}
	}
	in.printf("- Installing %s v%s...\n", rq.Source.ForDisplay(), v)
	target := dst
	if in.CacheDir != "" {
		target = PackageDir(in.CacheDir, rq.Source, v, in.platform())
	}
	hashes, keyID, err := in.download(ctx, rq.Source, v, base, target, locked)
	if err == nil && target != dst {
		err = link(target, dst)
	}
	if err != nil {
		return lock.Provider{}, err
	}
	entry.Hashes = append(entry.Hashes, hashes...)
	in.printf("- Installed %s v%s (signed, key ID %s)\n", rq.Source.ForDisplay(), v, keyID)
	return entry, nil
}

// choose picks the version: the locked one unless upgrading, else the
// newest the registry has that the constraints allow. base is the
// registry's providers endpoint when it was asked.
func (in *Installer) choose(ctx context.Context, rq Requirement, locked lock.Provider) (string, *url.URL, error) {
	name := rq.Source.ForDisplay()
	cons, err := version.NewConstraint(orAny(rq.Constraints))
	if err != nil {
		return "", nil, fmt.Errorf("provider %s: invalid version constraint %q: %v", name, rq.Constraints, err)
	}
	if locked.Version != "" && !in.Upgrade {
		lv, err := version.NewVersion(locked.Version)
		if err != nil || !cons.Check(lv) {
			return "", nil, fmt.Errorf("provider %s: the dependency lock file selects v%s, which does not match the configured version constraints %q; run plinth init --upgrade to choose a version that does", name, locked.Version, rq.Constraints)
		}
		in.printf("- Reusing previous version of %s from the dependency lock file\n", name)
		return locked.Version, nil, nil
	}
	if rq.Constraints == "" {
		in.printf("- Finding latest version of %s...\n", name)
	} else {
		in.printf("- Finding %s versions matching %q...\n", name, rq.Constraints)
	}
	avail, base, err := in.Registry.Versions(ctx, rq.Source)
	if err != nil {
		return "", nil, err
	}
	for _, a := range avail {
		if cons.Check(a.Version) {
			return a.Version.Original(), base, nil
		}
	}
	return "", nil, fmt.Errorf("provider %s: no available release matches the given constraints %q (the registry at %s has %s); change the constraints in required_providers", name, rq.Constraints, rq.Source.Hostname, listVersions(avail))
}

func orAny(c string) string {
	if strings.TrimSpace(c) == "" {
		return ">= 0.0.0"
	}
	return c
}

func listVersions(avail []Available) string {
	if len(avail) == 0 {
		return "no versions"
	}
	vs := make([]string, len(avail))
	for i, a := range avail {
		vs[i] = a.Version.Original()
	}
	return strings.Join(vs, ", ")
}

// download fetches and verifies a package, checks it against the lock,
// and moves it into dst; it returns the package's hashes for the lock.
// On any failure nothing is left at dst.
func (in *Installer) download(ctx context.Context, p tfaddr.Provider, v string, base *url.URL, dst string, locked lock.Provider) ([]string, string, error) {
	pkg, err := in.Registry.Package(ctx, base, p, v, in.platform())
	if err != nil {
		return nil, "", err
	}
	parent := filepath.Dir(filepath.Dir(dst))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, "", err
	}
	tmp, err := os.MkdirTemp(parent, ".installing-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(tmp)
	got, err := in.Registry.fetch(ctx, p, v, pkg, tmp)
	if err != nil {
		return nil, "", err
	}
	unpacked := filepath.Join(tmp, "unpacked")
	if err := unzip(got.zip, unpacked); err != nil {
		return nil, "", fmt.Errorf("provider %s v%s: unpacking %s: %w", p.ForDisplay(), v, pkg.Filename, err)
	}
	h1, err := lock.HashDir(unpacked)
	if err != nil {
		return nil, "", err
	}
	zh := lock.ZipHash(pkg.SHASum)
	if len(locked.Hashes) > 0 && !locked.Has(h1, zh) {
		return nil, "", &NotLockedError{Provider: p.ForDisplay(), Version: v, H1: h1, ZH: zh, Locked: locked.Hashes}
	}
	if err := replaceDir(unpacked, dst); err != nil {
		return nil, "", fmt.Errorf("provider %s v%s: %w", p.ForDisplay(), v, err)
	}
	return append([]string{h1}, zipHashes(got.sums, p.Type, v)...), got.keyID, nil
}

// zipHashes are the zh: entries for every platform's zip of this
// provider version that SHA256SUMS lists.
func zipHashes(sums map[string]string, typ, v string) []string {
	var out []string
	prefix := "terraform-provider-" + typ + "_" + v + "_"
	for name, sum := range sums {
		if strings.HasPrefix(name, prefix) && strings.HasSuffix(name, ".zip") {
			out = append(out, lock.ZipHash(sum))
		}
	}
	return out
}

// fromCache links the plugin cache's package of a version into dst if
// the lock vouches for it (as terraform 1.4 and later, a cached package
// is never trusted on its own).
func (in *Installer) fromCache(p tfaddr.Provider, v, dst string, locked lock.Provider) (bool, error) {
	if in.CacheDir == "" {
		return false, nil
	}
	cached := PackageDir(in.CacheDir, p, v, in.platform())
	if h, err := lock.HashDir(cached); err != nil || !locked.Has(h) {
		return false, nil
	}
	if err := link(cached, dst); err != nil {
		return false, err
	}
	in.printf("- Using %s v%s from the shared cache directory\n", p.ForDisplay(), v)
	return true, nil
}

// link makes dst a symbolic link to the package directory src (as
// terraform links cached packages), replacing whatever dst held.
func link(src, dst string) error {
	abs, err := filepath.Abs(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	if err := os.Symlink(abs, dst); err != nil {
		return fmt.Errorf("linking the cached provider package %s into %s: %w", abs, dst, err)
	}
	return nil
}

// replaceDir moves src to dst, replacing whatever dst held.
func replaceDir(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	return os.Rename(src, dst)
}

// NotLockedError is a package none of whose hashes the lock file lists
// for its version.
type NotLockedError struct {
	Provider, Version string
	H1, ZH            string
	Locked            []string
}

func (e *NotLockedError) Error() string {
	return fmt.Sprintf("provider %s v%s: the package's hashes %s and %s are not among those the dependency lock file %s lists for it (%s), so it was not installed. The package may have been changed since the lock was written. If you trust it, run plinth init --upgrade (or terraform providers lock) to record its hashes; otherwise find out why the registry's package changed",
		e.Provider, e.Version, e.H1, e.ZH, lock.FileName, strings.Join(e.Locked, ", "))
}

// ErrNotLocked is matched by errors.Is for a NotLockedError.
var ErrNotLocked = errors.New("package hash not in the lock file")

func (e *NotLockedError) Is(target error) bool { return target == ErrNotLocked }
