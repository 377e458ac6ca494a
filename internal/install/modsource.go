package install

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	version "github.com/hashicorp/go-version"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// moduleSource is a remote module call's source: a registry module, or
// a package address (git::URL, an http(s) archive URL), with the
// subdirectory of the package the module is in.
type moduleSource struct {
	raw      string
	registry *tfaddr.Module
	pkg      string // package address without its subdirectory
	subdir   string
}

// recorded is the source as modules.json records it: a registry source
// in full (with its host), any other as written.
func (s moduleSource) recorded() string {
	if s.registry != nil {
		return s.registry.String()
	}
	return s.raw
}

// parseModuleSource reads a remote source: git::, http(s) archives, and
// registry addresses ([HOST/]NAMESPACE/NAME/SYSTEM[//SUBDIR]).
func parseModuleSource(raw string) (moduleSource, error) {
	pkg, subdir := splitSubdir(raw)
	switch {
	case strings.HasPrefix(raw, "git::"), strings.HasPrefix(raw, "http://"), strings.HasPrefix(raw, "https://"):
		return moduleSource{raw: raw, pkg: pkg, subdir: subdir}, nil
	case strings.Contains(raw, "::") || strings.Contains(raw, "://"):
		return moduleSource{}, fmt.Errorf("plinth installs local paths, registry modules, git:: sources and http(s) archives; fetch this module another way (terraform init), or use one of those")
	}
	m, err := tfaddr.ParseModuleSource(raw)
	if err != nil {
		return moduleSource{}, fmt.Errorf("it is neither a local path (./ or ../), a registry module (NAMESPACE/NAME/SYSTEM), a git:: source nor an http(s) archive URL: %v", err)
	}
	return moduleSource{raw: raw, registry: &m, subdir: m.Subdir}, nil
}

// splitSubdir splits a package address from the //subdirectory that
// follows its path (before any query, after any scheme's ://).
func splitSubdir(addr string) (pkg, subdir string) {
	stop := len(addr)
	if i := strings.Index(addr, "?"); i >= 0 {
		stop = i
	}
	start := 0
	if i := strings.Index(addr[:stop], "://"); i >= 0 {
		start = i + 3
	}
	i := strings.Index(addr[start:stop], "//")
	if i < 0 {
		return addr, ""
	}
	i += start
	return addr[:i] + addr[stop:], path.Clean(addr[i+2 : stop])
}

// fetch downloads a remote module into the staging directory and
// returns its entry.
func (w *modWalk) fetch(ctx context.Context, k string, src moduleSource, c call) (ManifestEntry, error) {
	entry := ManifestEntry{Key: k, Source: src.recorded()}
	pkg, subdir := src.pkg, src.subdir
	if src.registry != nil {
		v, location, err := w.fromRegistry(ctx, *src.registry, c.version)
		if err != nil {
			return entry, err
		}
		entry.Version = v
		w.in.printf("Downloading %s %s for %s...\n", src.registry.Package.ForDisplay(), v, k)
		pkg, subdir = splitSubdir(location)
		subdir = path.Join(subdir, src.subdir)
	} else {
		w.in.printf("Downloading %s for %s...\n", src.pkg, k) // the package, without //subdir, as terraform says
	}
	dst := filepath.Join(w.staging, k)
	if err := w.getPackage(ctx, pkg, dst); err != nil {
		return entry, err
	}
	entry.Dir = ".terraform/modules/" + k
	if subdir != "" && subdir != "." {
		if info, err := os.Stat(filepath.Join(dst, filepath.FromSlash(subdir))); err != nil || !info.IsDir() {
			return entry, fmt.Errorf("the package %s has no directory %q", pkg, subdir)
		}
		entry.Dir += "/" + subdir
	}
	w.staged[k] = dst
	return entry, nil
}

// fromRegistry chooses a registry module's version (the newest the
// constraints allow) and asks where its package is.
func (w *modWalk) fromRegistry(ctx context.Context, m tfaddr.Module, constraints string) (string, string, error) {
	cons, err := version.NewConstraint(orAny(constraints))
	if err != nil {
		return "", "", fmt.Errorf("invalid version constraint %q: %v", constraints, err)
	}
	avail, base, err := w.in.Registry.ModuleVersions(ctx, m.Package)
	if err != nil {
		return "", "", err
	}
	for _, v := range avail {
		if cons.Check(v) {
			loc, err := w.in.Registry.ModuleLocation(ctx, base, m.Package, v.Original())
			return v.Original(), loc, err
		}
	}
	listed := make([]string, len(avail))
	for i, v := range avail {
		listed[i] = v.Original()
	}
	if len(listed) == 0 {
		listed = []string{"no versions"}
	}
	return "", "", fmt.Errorf("no version matches the constraints %q (the registry has %s); change the module block's version", constraints, strings.Join(listed, ", "))
}

// versionAllowed reports whether an installed registry version still
// meets a call's constraints.
func versionAllowed(v, constraints string) bool {
	cons, err := version.NewConstraint(orAny(constraints))
	parsed, verr := version.NewVersion(v)
	return err == nil && verr == nil && cons.Check(parsed)
}

// getPackage fetches a package address into dst (which must not exist):
// git::URL[?ref=REF] is cloned, an http(s) archive downloaded and
// unpacked.
func (w *modWalk) getPackage(ctx context.Context, pkg, dst string) error {
	if rest, ok := strings.CutPrefix(pkg, "git::"); ok {
		return w.gitClone(ctx, rest, dst)
	}
	u, err := url.Parse(pkg)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("plinth cannot fetch %q: it fetches git:: sources and http(s) archives", pkg)
	}
	return w.getArchive(ctx, u, dst)
}

// gitClone clones a repository and checks out the ref the URL's query
// names (?ref=, a tag, branch or commit), as terraform does with the git
// executable; ?depth=N makes a shallow clone of that ref (a tag or
// branch then).
func (w *modWalk) gitClone(ctx context.Context, raw, dst string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("invalid git URL %q: %v", raw, err)
	}
	q := u.Query()
	ref, depth := q.Get("ref"), q.Get("depth")
	q.Del("ref")
	q.Del("depth")
	u.RawQuery = q.Encode()
	if strings.HasPrefix(ref, "-") {
		return fmt.Errorf("the ref %q is not a tag, branch or commit", ref)
	}
	args := []string{"clone", "--quiet"}
	if depth != "" {
		if n, err := strconv.Atoi(depth); err != nil || n < 1 {
			return fmt.Errorf("?depth=%s is not a positive number", depth)
		}
		args = append(args, "--depth", depth)
		if ref != "" {
			args = append(args, "--branch", ref)
		}
	}
	if err := w.git(ctx, "", append(args, "--", u.String(), dst)...); err != nil {
		if depth != "" && ref != "" {
			return fmt.Errorf("the repository %s has no tag or branch %q (with ?depth=, ref must name one): %w", u, ref, err)
		}
		return err
	}
	if ref == "" || depth != "" {
		return nil
	}
	if err := w.git(ctx, dst, "checkout", "--quiet", ref, "--"); err != nil {
		return fmt.Errorf("the repository %s has no ref %q (no such tag, branch or commit): %w", u, ref, err)
	}
	return nil
}

// git runs the git executable in dir ("" for the current directory).
func (w *modWalk) git(ctx context.Context, dir string, args ...string) error {
	bin := w.in.Git
	if bin == "" {
		bin = "git"
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("git %s failed: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return nil
}
