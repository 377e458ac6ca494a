package install

import (
	"context"
	"errors"
	"fmt"
	"io"
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
	// Installation is the CLI configuration's provider_installation:
	// which methods (direct, filesystem and network mirrors) install
	// which providers. Zero installs every provider from its registry.
	Installation Installation
	// ImpliedMirrors are the directories terraform searches as
	// filesystem mirrors when the CLI configuration has no
	// provider_installation block (ImpliedMirrorDirs): a provider found
	// in one is installed from there only, any other directly.
	ImpliedMirrors []string
}

// ImpliedMirrorDirs are terraform's implied local mirror directories for
// a configuration directory: terraform.d/plugins in it,
// ~/.terraform.d/plugins, and terraform/plugins under the XDG data
// directories ($XDG_DATA_HOME, else ~/.local/share; $XDG_DATA_DIRS, else
// /usr/local/share and /usr/share).
func ImpliedMirrorDirs(dir string, getenv func(string) string) []string {
	out := []string{filepath.Join(dir, "terraform.d", "plugins")}
	home := getenv("HOME")
	if home != "" {
		out = append(out, filepath.Join(home, ".terraform.d", "plugins"))
	}
	data := getenv("XDG_DATA_HOME")
	if data == "" && home != "" {
		data = filepath.Join(home, ".local", "share")
	}
	dirs := getenv("XDG_DATA_DIRS")
	if dirs == "" {
		dirs = "/usr/local/share:/usr/share"
	}
	for _, d := range append([]string{data}, filepath.SplitList(dirs)...) {
		if d != "" {
			out = append(out, filepath.Join(d, "terraform", "plugins"))
		}
	}
	return out
}

// methodsFor lists the installation methods whose include and exclude
// patterns admit the provider, in the configuration's order.
func (in *Installer) methodsFor(p tfaddr.Provider) ([]method, error) {
	if !in.Installation.Explicit {
		return in.impliedMethods(p)
	}
	var out []method
	for _, m := range in.Installation.Methods {
		if !m.Includes(p) {
			continue
		}
		src, err := in.sourceOf(m)
		if err != nil {
			return nil, err
		}
		out = append(out, method{m, src})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("provider %s: no method of the CLI configuration's provider_installation block includes it; add it to the include patterns of one (or remove it from an exclude)", p.ForDisplay())
	}
	return out, nil
}

// impliedMethods are terraform's methods without a provider_installation
// block: the implied mirror directories that hold the provider, else its
// registry.
func (in *Installer) impliedMethods(p tfaddr.Provider) ([]method, error) {
	var out []method
	for _, dir := range in.ImpliedMirrors {
		m := fsMirror{path: dir, pl: in.platform()}
		if vs, err := m.versions(context.Background(), p); err == nil && len(vs) > 0 {
			out = append(out, method{MethodConfig{Kind: FilesystemMirror, Location: dir}, m})
		}
	}
	if len(out) == 0 {
		out = append(out, method{MethodConfig{Kind: Direct}, registrySource{in.Registry}})
	}
	return out, nil
}

func (in *Installer) sourceOf(m MethodConfig) (source, error) {
	switch m.Kind {
	case FilesystemMirror:
		return fsMirror{path: m.Location, pl: in.platform()}, nil
	case NetworkMirror:
		return newNetMirror(m.Location, in.Registry)
	}
	return registrySource{in.Registry}, nil
}

// Install installs every required provider and returns the new lock (it
// does not write it). lk is the current lock. A provider that fails is
// not installed and the first failure is returned.
func (in *Installer) Install(ctx context.Context, reqs []Requirement, lk *lock.File) (*lock.File, error) {
	sort.Slice(reqs, func(i, j int) bool { return reqs[i].Source.String() < reqs[j].Source.String() })
	next := &lock.File{Providers: map[string]lock.Provider{}}
	for _, rq := range reqs {
		if dir, ok := in.Installation.DevOverrides[rq.Source.String()]; ok {
			in.printf("- Skipping %s: dev_overrides in the CLI configuration uses the provider in %s\n", rq.Source.ForDisplay(), dir)
			continue
		}
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
// package the lock vouches for, else fetches, verifies and unpacks one
// from the first of its installation methods that has it.
func (in *Installer) one(ctx context.Context, rq Requirement, locked lock.Provider) (lock.Provider, error) {
	methods, err := in.methodsFor(rq.Source)
	if err != nil {
		return lock.Provider{}, err
	}
	v, from, err := in.choose(ctx, rq, locked, methods)
	if err != nil {
		return lock.Provider{}, err
	}
	if locked.Version != v || in.Upgrade {
		locked = lock.Provider{} // -upgrade trusts the sources afresh, as terraform's does
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
	if from == nil {
		if from, err = in.holder(ctx, rq.Source, v, methods); err != nil {
			return lock.Provider{}, err
		}
	}
	in.printf("- Installing %s v%s...\n", rq.Source.ForDisplay(), v)
	hashes, auth, err := in.fetch(ctx, rq.Source, v, from, dst, locked)
	if err != nil {
		return lock.Provider{}, err
	}
	entry.Hashes = append(entry.Hashes, hashes...)
	in.printf("- Installed %s v%s (%s)\n", rq.Source.ForDisplay(), v, auth)
	return entry, nil
}

// choose picks the version: the locked one unless upgrading, else the
// newest any of the methods has that the constraints allow. from is the
// first method that has it, when they were asked.
func (in *Installer) choose(ctx context.Context, rq Requirement, locked lock.Provider, methods []method) (string, *method, error) {
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
	var best *version.Version
	var from *method
	var all []*version.Version
	for i := range methods {
		vs, err := methods[i].src.versions(ctx, rq.Source)
		if err != nil {
			return "", nil, err
		}
		all = append(all, vs...)
		for _, v := range vs {
			if cons.Check(v) && (best == nil || v.GreaterThan(best)) {
				best, from = v, &methods[i]
			}
		}
	}
	if best == nil {
		return "", nil, fmt.Errorf("provider %s: no available release matches the given constraints %q (%s %s); change the constraints in required_providers", name, rq.Constraints, describeMethods(methods), listVersions(all))
	}
	return best.Original(), from, nil
}

// holder is the first method that has version v of the provider; with
// one method, that one, unasked.
func (in *Installer) holder(ctx context.Context, p tfaddr.Provider, v string, methods []method) (*method, error) {
	if len(methods) == 1 {
		return &methods[0], nil
	}
	for i := range methods {
		vs, err := methods[i].src.versions(ctx, p)
		if err != nil {
			return nil, err
		}
		for _, have := range vs {
			if have.Original() == v || have.String() == v {
				return &methods[i], nil
			}
		}
	}
	return nil, fmt.Errorf("provider %s v%s, which the dependency lock file selects, is in none of %s; run plinth init --upgrade to choose a version they have", p.ForDisplay(), v, describeMethods(methods))
}

func describeMethods(methods []method) string {
	ds := make([]string, len(methods))
	for i, m := range methods {
		ds[i] = m.Describe()
	}
	return strings.Join(ds, ", ")
}

func orAny(c string) string {
	if strings.TrimSpace(c) == "" {
		return ">= 0.0.0"
	}
	return c
}

func listVersions(avail []*version.Version) string {
	if len(avail) == 0 {
		return "have no versions"
	}
	seen := map[string]bool{}
	var vs []string
	for _, a := range avail {
		if !seen[a.Original()] {
			seen[a.Original()] = true
			vs = append(vs, a.Original())
		}
	}
	return "have " + strings.Join(vs, ", ")
}

// fetch gets a package from a method, checks it against the lock, and
// puts it at dst (through the plugin cache, if there is one); it returns
// the package's hashes for the lock and how it was checked. On any
// failure nothing is left at dst.
func (in *Installer) fetch(ctx context.Context, p tfaddr.Provider, v string, from *method, dst string, locked lock.Provider) ([]string, string, error) {
	target := dst
	if in.CacheDir != "" {
		target = PackageDir(in.CacheDir, p, v, in.platform())
	}
	parent := filepath.Dir(filepath.Dir(target))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, "", err
	}
	tmp, err := os.MkdirTemp(parent, ".installing-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(tmp)
	got, err := from.src.get(ctx, p, v, in.platform(), tmp)
	if err != nil {
		return nil, "", err
	}
	h1, err := lock.HashDir(got.dir)
	if err != nil {
		return nil, "", err
	}
	if err := checkLocked(p, v, h1, got.zipSum, locked); err != nil {
		return nil, "", err
	}
	if err := place(got, target, dst); err != nil {
		return nil, "", fmt.Errorf("provider %s v%s: %w", p.ForDisplay(), v, err)
	}
	return append([]string{h1}, got.hashes...), got.auth, nil
}

// checkLocked refuses a package none of whose hashes the lock lists for
// its version (when it lists any).
func checkLocked(p tfaddr.Provider, v, h1, zipSum string, locked lock.Provider) error {
	zh := ""
	if zipSum != "" {
		zh = lock.ZipHash(zipSum)
	}
	if len(locked.Hashes) == 0 || locked.Has(h1) || (zh != "" && locked.Has(zh)) {
		return nil
	}
	return &NotLockedError{Provider: p.ForDisplay(), Version: v, H1: h1, ZH: zh, Locked: locked.Hashes}
}

// place puts a fetched package at target and, if dst is elsewhere (a
// plugin cache), links dst to it. A mirror's unpacked directory is
// linked, never moved, as terraform links it.
func place(got fetched, target, dst string) error {
	if got.link {
		return link(got.dir, dst)
	}
	if err := replaceDir(got.dir, target); err != nil {
		return err
	}
	if target != dst {
		return link(target, dst)
	}
	return nil
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
	hashes := e.H1 + " and " + e.ZH
	if e.ZH == "" {
		hashes = e.H1
	}
	return fmt.Sprintf("provider %s v%s: the package's hashes %s are not among those the dependency lock file %s lists for it (%s), so it was not installed. The package may have been changed since the lock was written. If you trust it, run plinth init --upgrade (or terraform providers lock) to record its hashes; otherwise find out why the package changed",
		e.Provider, e.Version, hashes, lock.FileName, strings.Join(e.Locked, ", "))
}

// ErrNotLocked is matched by errors.Is for a NotLockedError.
var ErrNotLocked = errors.New("package hash not in the lock file")

func (e *NotLockedError) Is(target error) bool { return target == ErrNotLocked }
