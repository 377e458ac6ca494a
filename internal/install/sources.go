package install

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/plinth-iac/plinth/internal/install/lock"
)

// source is where one installation method finds provider packages.
type source interface {
	// versions lists the provider's versions the source has, newest
	// first; none (and no error) when it does not have the provider.
	versions(ctx context.Context, p tfaddr.Provider) ([]*version.Version, error)
	// get fetches one version's package for pl, verified as far as the
	// method can, using tmp (an empty directory) for what it writes.
	get(ctx context.Context, p tfaddr.Provider, v string, pl Platform, tmp string) (fetched, error)
}

// fetched is a package a source got.
type fetched struct {
	dir    string   // the unpacked package
	link   bool     // dir is the mirror's own: link to it, never move it
	zipSum string   // hex SHA-256 of the zip it came from; "" for none
	hashes []string // hashes the source vouches for besides dir's h1: (for the lock)
	auth   string   // how it was checked, for the Installed line
}

// method is a configured source and the providers it is for.
type method struct {
	MethodConfig
	src source
}

// registrySource is the direct method: the provider's origin registry.
type registrySource struct{ r *Registry }

func (s registrySource) versions(ctx context.Context, p tfaddr.Provider) ([]*version.Version, error) {
	avail, _, err := s.r.Versions(ctx, p)
	out := make([]*version.Version, len(avail))
	for i, a := range avail {
		out[i] = a.Version
	}
	return out, err
}

func (s registrySource) get(ctx context.Context, p tfaddr.Provider, v string, pl Platform, tmp string) (fetched, error) {
	base, err := s.r.providersURL(ctx, p.Hostname.String())
	if err != nil {
		return fetched{}, err
	}
	pkg, err := s.r.Package(ctx, base, p, v, pl)
	if err != nil {
		return fetched{}, err
	}
	got, err := s.r.fetch(ctx, p, v, pkg, tmp)
	if err != nil {
		return fetched{}, err
	}
	dir, err := unzipInto(got.zip, tmp, p, v, pkg.Filename)
	return fetched{dir: dir, zipSum: pkg.SHASum, hashes: zipHashes(got.sums, p.Type, v),
		auth: "signed, key ID " + got.keyID}, err
}

func unzipInto(zip, tmp string, p tfaddr.Provider, v, name string) (string, error) {
	dir := filepath.Join(tmp, "unpacked")
	if err := unzip(zip, dir); err != nil {
		return "", fmt.Errorf("provider %s v%s: unpacking %s: %w", p.ForDisplay(), v, name, err)
	}
	return dir, nil
}

// fsMirror is a filesystem_mirror: HOST/NAMESPACE/TYPE/ holding
// VERSION/OS_ARCH/ directories (unpacked) or
// terraform-provider-TYPE_VERSION_OS_ARCH.zip files (packed).
type fsMirror struct {
	path string
	pl   Platform
}

func (m fsMirror) providerDir(p tfaddr.Provider) string {
	return filepath.Join(m.path, p.Hostname.String(), p.Namespace, p.Type)
}

func (m fsMirror) zipName(p tfaddr.Provider, v string) string {
	return fmt.Sprintf("terraform-provider-%s_%s_%s.zip", p.Type, v, m.pl)
}

// versions lists the versions with a package for this platform, packed
// or unpacked.
func (m fsMirror) versions(_ context.Context, p tfaddr.Provider) ([]*version.Version, error) {
	entries, err := os.ReadDir(m.providerDir(p))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the filesystem mirror %s: %w", m.path, err)
	}
	seen := map[string]*version.Version{}
	for _, e := range entries {
		name := e.Name()
		if rest, ok := strings.CutPrefix(name, "terraform-provider-"+p.Type+"_"); ok && strings.HasSuffix(name, "_"+m.pl.String()+".zip") {
			name = strings.TrimSuffix(rest, "_"+m.pl.String()+".zip")
		} else if _, err := os.Stat(filepath.Join(m.providerDir(p), name, m.pl.String())); err != nil {
			continue
		}
		if v, err := version.NewVersion(name); err == nil {
			seen[v.String()] = v
		}
	}
	return newestFirst(seen), nil
}

func newestFirst(seen map[string]*version.Version) []*version.Version {
	out := make([]*version.Version, 0, len(seen))
	for _, v := range seen {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GreaterThan(out[j]) })
	return out
}

func (m fsMirror) get(_ context.Context, p tfaddr.Provider, v string, pl Platform, tmp string) (fetched, error) {
	unpacked := filepath.Join(m.providerDir(p), v, pl.String())
	if st, err := os.Stat(unpacked); err == nil && st.IsDir() {
		return fetched{dir: unpacked, link: true, auth: "unauthenticated"}, nil
	}
	zip := filepath.Join(m.providerDir(p), m.zipName(p, v))
	sum, err := lock.FileSum(zip)
	if err != nil {
		return fetched{}, fmt.Errorf("provider %s v%s is not in the filesystem mirror %s for %s (neither %s nor %s)", p.ForDisplay(), v, m.path, pl, unpacked, zip)
	}
	dir, err := unzipInto(zip, tmp, p, v, zip)
	return fetched{dir: dir, zipSum: sum, auth: "unauthenticated"}, err
}

// netMirror is a network_mirror: the provider network mirror protocol,
// BASE/HOST/NAMESPACE/TYPE/index.json listing versions and
// .../VERSION.json listing each platform's archive URL and hashes.
type netMirror struct {
	base *url.URL
	r    *Registry
}

func newNetMirror(raw string, r *Registry) (netMirror, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return netMirror{}, err
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return netMirror{base: u, r: r}, nil
}

func (m netMirror) providerURL(p tfaddr.Provider, file string) *url.URL {
	return m.base.JoinPath(p.Hostname.String(), p.Namespace, p.Type, file)
}

func (m netMirror) versions(ctx context.Context, p tfaddr.Provider) ([]*version.Version, error) {
	var body struct {
		Versions map[string]struct{} `json:"versions"`
	}
	err := m.r.getJSON(ctx, m.providerURL(p, "index.json"), m.base.Host, &body)
	var nf notFound
	if errors.As(err, &nf) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing versions of provider %s in the network mirror %s: %w", p.ForDisplay(), m.base, err)
	}
	seen := map[string]*version.Version{}
	for raw := range body.Versions {
		if v, err := version.NewVersion(raw); err == nil {
			seen[v.String()] = v
		}
	}
	return newestFirst(seen), nil
}

func (m netMirror) get(ctx context.Context, p tfaddr.Provider, v string, pl Platform, tmp string) (fetched, error) {
	what := fmt.Sprintf("provider %s v%s", p.ForDisplay(), v)
	u := m.providerURL(p, v+".json")
	var body struct {
		Archives map[string]struct {
			URL    string   `json:"url"`
			Hashes []string `json:"hashes"`
		} `json:"archives"`
	}
	if err := m.r.getJSON(ctx, u, m.base.Host, &body); err != nil {
		return fetched{}, fmt.Errorf("%s in the network mirror %s: %w", what, m.base, err)
	}
	a, ok := body.Archives[pl.String()]
	if !ok {
		return fetched{}, fmt.Errorf("%s is not available for %s in the network mirror %s", what, pl, m.base)
	}
	zipURL, err := u.Parse(a.URL)
	if err != nil || a.URL == "" {
		return fetched{}, fmt.Errorf("the network mirror %s gives %s an invalid URL %q", m.base, what, a.URL)
	}
	zip, sum, err := m.r.save(ctx, zipURL.String(), m.base.Host, tmp)
	if err != nil {
		return fetched{}, fmt.Errorf("%s: %w; the package was not installed", what, err)
	}
	// A zip the listed zh: hashes refuse is not even unpacked.
	err = checkMirrorHashes("", sum, a.Hashes)
	var dir string
	if err == nil {
		if dir, err = unzipInto(zip, tmp, p, v, zipURL.String()); err != nil {
			return fetched{}, err
		}
		err = checkMirrorHashes(dir, sum, a.Hashes)
	}
	if err != nil {
		return fetched{}, fmt.Errorf("%s from the network mirror %s: %w; the package was not installed", what, m.base, err)
	}
	return fetched{dir: dir, zipSum: sum, auth: "verified checksum"}, nil
}

// checkMirrorHashes checks a package against the hashes a network mirror
// lists for it (none: nothing to check, as terraform does). With dir ""
// (not yet unpacked) only a list of nothing but zh: hashes can refuse.
func checkMirrorHashes(dir, zipSum string, listed []string) error {
	if len(listed) == 0 {
		return nil
	}
	h1 := ""
	if dir != "" {
		var err error
		if h1, err = lock.HashDir(dir); err != nil {
			return err
		}
	} else if slices.ContainsFunc(listed, func(h string) bool { return strings.HasPrefix(h, "h1:") }) {
		return nil
	}
	for _, h := range listed {
		if h == h1 || h == lock.ZipHash(zipSum) {
			return nil
		}
	}
	mine := h1 + " and " + lock.ZipHash(zipSum)
	if dir == "" {
		mine = lock.ZipHash(zipSum)
	}
	return fmt.Errorf("its hashes %s are not among those the mirror lists for it (%s)", mine, strings.Join(listed, ", "))
}
