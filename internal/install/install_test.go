package install

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/plinth-iac/plinth/internal/install/lock"
	"github.com/plinth-iac/plinth/internal/install/registrytest"
	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/tfproviders"
)

// randomBinary is the real random provider, built from the Go module
// proxy (cached between runs).
var randomBinary string

func TestMain(m *testing.M) {
	dir, err := tfproviders.DefaultDir()
	if err == nil {
		spec, _ := tfproviders.Lookup("random")
		randomBinary, err = tfproviders.Build(context.Background(), dir, spec)
	}
	if err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

// releases offers the real random binary as 3.9.0 and, as an older
// release, 3.5.1 (the same bytes: only the version chosen matters).
func releases() []registrytest.Release {
	return []registrytest.Release{
		{Namespace: "hashicorp", Type: "random", Version: "3.5.1", Binary: randomBinary},
		{Namespace: "hashicorp", Type: "random", Version: "3.9.0", Binary: randomBinary},
	}
}

type fixture struct {
	srv  *registrytest.Server
	dir  string
	addr tfaddr.Provider
}

func newFixture(t *testing.T) fixture {
	old := registrytest.Release{Namespace: "hashicorp", Type: "random", Version: "4.0.0", Binary: randomBinary, Protocols: []string{"4.0"}}
	srv := registrytest.New(t, append(releases(), old)...)
	addr, err := tfaddr.ParseProviderSource(srv.Host() + "/hashicorp/random")
	if err != nil {
		t.Fatal(err)
	}
	return fixture{srv: srv, dir: t.TempDir(), addr: addr}
}

func (f fixture) installer(client *http.Client, upgrade bool) *Installer {
	return &Installer{Dir: f.dir, Registry: &Registry{HTTP: client}, Upgrade: upgrade}
}

func (f fixture) install(t *testing.T, constraints string, upgrade bool, lk *lock.File) (*lock.File, error) {
	t.Helper()
	if lk == nil {
		lk = &lock.File{Providers: map[string]lock.Provider{}}
	}
	return f.installer(f.srv.Client(), upgrade).Install(context.Background(),
		[]Requirement{{Source: f.addr, Constraints: constraints}}, lk)
}

// TestInstallsNewestMatchingAndLocksIt: the newest version the
// constraints allow is unpacked where terraform puts it, the lock entry
// holds its h1: and a zh: for each platform's zip, and the plugin finder
// finds the provider there.
func TestInstallsNewestMatchingAndLocksIt(t *testing.T) {
	f := newFixture(t)
	got, err := f.install(t, "~> 3.6", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	dst := PackageDir(f.dir, f.addr, "3.9.0", f.installer(nil, false).platform())
	h1, err := lock.HashDir(dst)
	if err != nil {
		t.Fatal(err)
	}
	r := releases()[1]
	hashes := []string{h1, "zh:" + f.srv.ZipSHA256(r, ""), "zh:" + f.srv.ZipSHA256(r, registrytest.OtherPlatform)}
	sort.Strings(hashes)
	e := got.Providers[f.addr.String()]
	sort.Strings(e.Hashes)
	want := lock.Provider{Address: f.addr.String(), Version: "3.9.0", Constraints: "~> 3.6", Hashes: hashes}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Fatalf("lock entry (-want +got):\n%s", diff)
	}
	p, err := (&plugin.Finder{Env: plugin.Env{ProjectDir: f.dir}}).Find(context.Background(),
		plugin.Request{Name: "random", Version: "~> 3.6", Source: f.addr.String()})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.Path, dst+string(filepath.Separator)) || p.Version != "3.9.0" {
		t.Fatalf("plugin finder found %s v%s, want the package in %s", p.Path, p.Version, dst)
	}
}

// TestLockedVersionIsKeptUnlessUpgrading: with 3.5.1 locked, init keeps
// it; -upgrade moves to 3.9.0 within the same constraints.
func TestLockedVersionIsKeptUnlessUpgrading(t *testing.T) {
	for name, tc := range map[string]struct {
		upgrade bool
		want    string
	}{"kept": {false, "3.5.1"}, "upgraded": {true, "3.9.0"}} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			first, err := f.install(t, ">= 3.0, < 3.6", false, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := f.install(t, ">= 3.0, < 4.0", tc.upgrade, first)
			if err != nil {
				t.Fatal(err)
			}
			if v := got.Providers[f.addr.String()].Version; v != tc.want {
				t.Fatalf("version %s, want %s", v, tc.want)
			}
		})
	}
}

// TestReinstallKeepsLockedHashes: installing the locked version again
// (the package directory removed) checks it against the lock and keeps
// the lock's hashes.
func TestReinstallKeepsLockedHashes(t *testing.T) {
	f := newFixture(t)
	first, err := f.install(t, "~> 3.6", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(f.dir, ".terraform")); err != nil {
		t.Fatal(err)
	}
	second, err := f.install(t, "~> 3.6", false, first)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(first.Bytes()), string(second.Bytes())); diff != "" {
		t.Fatalf("lock after reinstall (-want +got):\n%s", diff)
	}
}

// TestRefusals: each broken link is refused with an error that says
// what is wrong, and nothing is installed.
func TestRefusals(t *testing.T) {
	otherKey := registrytest.NewKey(t)
	staleLock := func(f fixture) *lock.File {
		return &lock.File{Providers: map[string]lock.Provider{f.addr.String(): {
			Address: f.addr.String(), Version: "3.9.0", Constraints: "~> 3.6",
			Hashes: []string{"h1:bm90IHRoaXMgcGFja2FnZQ==", "zh:0000000000000000000000000000000000000000000000000000000000000000"}}}}
	}
	for name, tc := range map[string]struct {
		break_      func(f *fixture)
		lock        func(f fixture) *lock.File
		constraints string
		want        []string
		is          error
	}{
		"tampered zip":     {break_: func(f *fixture) { f.srv.TamperZip = true }, want: []string{"has SHA-256", "changed or corrupted", "not installed"}},
		"bad signature":    {break_: func(f *fixture) { f.srv.BadSignature = true }, want: []string{"signature of its checksums", "does not verify"}},
		"unknown key":      {break_: func(f *fixture) { f.srv.SignWith = otherKey }, want: []string{"signed by a key the registry does not list for this provider (it lists "}},
		"hash not in lock": {lock: staleLock, want: []string{"v3.9.0", "h1:", "zh:", "plinth init --upgrade", "terraform providers lock"}, is: ErrNotLocked},
		"unsatisfiable":    {constraints: "> 4.0", want: []string{`no available release matches the given constraints "> 4.0"`, "4.0.0, 3.9.0, 3.5.1"}},
		"old protocol":     {constraints: "4.0.0", want: []string{"v4.0.0 speaks plugin protocol 4.0, but plinth speaks 5 and 6"}},
		"no token":         {break_: func(f *fixture) { f.srv.Token = "s3cret" }, want: []string{"401 Unauthorized", "wants credentials", "TF_TOKEN_127_0_0_1:", "credentials block"}},
		"unreachable":      {break_: func(f *fixture) { f.srv.Close() }, want: []string{"could not reach 127.0.0.1:", "filesystem_mirror", "network_mirror", "TF_PLUGIN_CACHE_DIR"}, is: ErrUnreachable},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			var lk *lock.File
			if tc.lock != nil {
				lk = tc.lock(f)
			}
			if tc.break_ != nil {
				tc.break_(&f)
			}
			c := tc.constraints
			if c == "" {
				c = "~> 3.6"
			}
			_, err := f.install(t, c, false, lk)
			if err == nil {
				t.Fatal("installed; want a refusal")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not say %q", err, w)
				}
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
			if files := filesUnder(t, filepath.Join(f.dir, ".terraform")); len(files) > 0 {
				t.Errorf("left behind %v", files)
			}
		})
	}
}

// TestMirrorRefusals: under a provider_installation block, a package
// the network mirror's hashes do not vouch for, a provider no method
// includes, a mirror that cannot be reached or lacks the provider, and a
// mirror's package the lock does not list are refused saying so, with
// nothing installed.
func TestMirrorRefusals(t *testing.T) {
	for name, tc := range map[string]struct {
		methods func(f fixture, mirror string) []MethodConfig
		break_  func(f *fixture)
		locked  bool
		want    []string
		is      error
	}{
		"network mirror's package changed": {methods: netOnly, break_: func(f *fixture) { f.srv.TamperZip = true },
			want: []string{"are not among those the mirror lists for it (zh:", "not installed"}},
		"network mirror unreachable": {methods: netOnly, break_: func(f *fixture) { f.srv.Close() },
			want: []string{"in the network mirror https://127.0.0.1:", "could not reach 127.0.0.1:", "filesystem_mirror"}, is: ErrUnreachable},
		"no method includes it": {methods: func(f fixture, _ string) []MethodConfig {
			return []MethodConfig{{Kind: Direct, Exclude: []Pattern{{strings.ToLower(f.srv.Host()), "hashicorp", "*"}}}}
		}, want: []string{"no method of the CLI configuration's provider_installation block includes it"}},
		"filesystem mirror lacks it": {methods: func(_ fixture, _ string) []MethodConfig {
			return []MethodConfig{{Kind: FilesystemMirror, Location: t.TempDir()}}
		}, want: []string{"no available release matches", "the filesystem mirror /", "have no versions"}},
		"mirror's package not in the lock": {methods: fsOnly, locked: true,
			want: []string{"v3.9.0", "are not among those the dependency lock file"}, is: ErrNotLocked},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			mirror := t.TempDir()
			f.srv.WriteMirror(t, mirror, f.srv.Host(), false)
			in := f.installer(f.srv.Client(), false)
			in.Installation = Installation{Explicit: true, Methods: tc.methods(f, mirror)}
			lk := &lock.File{Providers: map[string]lock.Provider{}}
			if tc.locked {
				lk.Providers[f.addr.String()] = lock.Provider{Address: f.addr.String(), Version: "3.9.0", Hashes: []string{"h1:c3RhbGU="}}
			}
			if tc.break_ != nil {
				tc.break_(&f)
			}
			_, err := in.Install(context.Background(), []Requirement{{Source: f.addr, Constraints: "~> 3.6"}}, lk)
			if err == nil {
				t.Fatal("installed; want a refusal")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not say %q", err, w)
				}
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
			if files := filesUnder(t, filepath.Join(f.dir, ".terraform")); len(files) > 0 {
				t.Errorf("left behind %v", files)
			}
		})
	}
}

func netOnly(f fixture, _ string) []MethodConfig {
	return []MethodConfig{{Kind: NetworkMirror, Location: f.srv.URL + registrytest.MirrorPath}}
}

func fsOnly(_ fixture, mirror string) []MethodConfig {
	return []MethodConfig{{Kind: FilesystemMirror, Location: mirror}}
}

// TestUpgradeReplacesHashesTheLockDoesNotList: after a refusal for
// hashes the lock does not list, --upgrade installs the package and
// records its hashes instead of the old ones.
func TestUpgradeReplacesHashesTheLockDoesNotList(t *testing.T) {
	f := newFixture(t)
	stale := &lock.File{Providers: map[string]lock.Provider{f.addr.String(): {
		Address: f.addr.String(), Version: "3.9.0", Hashes: []string{"h1:c3RhbGU="}}}}
	if _, err := f.install(t, "~> 3.6", false, stale); !errors.Is(err, ErrNotLocked) {
		t.Fatalf("without --upgrade: %v, want ErrNotLocked", err)
	}
	got, err := f.install(t, "~> 3.6", true, stale)
	if err != nil {
		t.Fatal(err)
	}
	if hs := got.Providers[f.addr.String()].Hashes; len(hs) != 3 || slices.Contains(hs, "h1:c3RhbGU=") {
		t.Fatalf("hashes after --upgrade %v, want the package's h1: and two zh:, not the stale one", hs)
	}
}

// TestTokenGoesToTheRegistryNotTheDownloads: a private registry's token
// is sent to its API and not with the package downloads.
func TestTokenGoesToTheRegistryNotTheDownloads(t *testing.T) {
	f := newFixture(t)
	f.srv.Token = "s3cret"
	in := f.installer(f.srv.Client(), false)
	in.Registry.Token = func(host string) string {
		if host == f.srv.Host() {
			return "s3cret"
		}
		return ""
	}
	if _, err := in.Install(context.Background(), []Requirement{{Source: f.addr, Constraints: "~> 3.6"}}, &lock.File{}); err != nil {
		t.Fatal(err)
	}
	if f.srv.TokenOnFile {
		t.Error("the token was sent with a package download")
	}
}

// TestPluginCache: with a plugin cache the package is unpacked there and
// linked into the configuration; a second configuration whose lock
// vouches for it links it without asking the registry (closed here).
func TestPluginCache(t *testing.T) {
	f := newFixture(t)
	cache := t.TempDir()
	in := f.installer(f.srv.Client(), false)
	in.CacheDir = cache
	first, err := in.Install(context.Background(), []Requirement{{Source: f.addr, Constraints: "~> 3.6"}}, &lock.File{})
	if err != nil {
		t.Fatal(err)
	}
	pl := in.platform()
	dst, cached := PackageDir(f.dir, f.addr, "3.9.0", pl), PackageDir(cache, f.addr, "3.9.0", pl)
	if target, err := os.Readlink(dst); err != nil || target != cached {
		t.Fatalf("%s links to %q (%v), want %s", dst, target, err, cached)
	}
	f.srv.Close()
	var out strings.Builder
	other := &Installer{Dir: t.TempDir(), Registry: &Registry{HTTP: f.srv.Client()}, CacheDir: cache, Out: &out}
	second, err := other.Install(context.Background(), []Requirement{{Source: f.addr, Constraints: "~> 3.6"}}, first)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "from the shared cache directory") {
		t.Errorf("the second install did not use the cache:\n%s", out.String())
	}
	if diff := cmp.Diff(string(first.Bytes()), string(second.Bytes())); diff != "" {
		t.Errorf("lock (-first +second):\n%s", diff)
	}
	if _, err := lock.HashDir(PackageDir(other.Dir, f.addr, "3.9.0", pl)); err != nil {
		t.Errorf("the linked package cannot be hashed: %v", err)
	}
}

func filesUnder(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, path)
		}
		return nil
	})
	return out
}
