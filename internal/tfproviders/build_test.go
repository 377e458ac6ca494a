package tfproviders

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSpecsSortedAndUnique(t *testing.T) {
	var names []string
	for _, s := range Specs() {
		names = append(names, s.Name)
		if strings.HasPrefix(s.Version, "v") {
			t.Errorf("%s: Version %q must not start with v", s.Name, s.Version)
		}
	}
	if !sort.StringsAreSorted(names) {
		t.Errorf("specs are not sorted: %v", names)
	}
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			t.Errorf("duplicate spec %s", names[i])
		}
	}
}

func TestBinaryName(t *testing.T) {
	s, ok := Lookup("random")
	if !ok {
		t.Fatal("random is not pinned")
	}
	if diff := cmp.Diff("terraform-provider-random_v3.9.0", s.Binary()); diff != "" {
		t.Errorf("Binary (-want +got):\n%s", diff)
	}
	want := filepath.Join("/c", "random", s.ModuleVersion, s.Binary())
	if diff := cmp.Diff(want, s.Path("/c")); diff != "" {
		t.Errorf("Path (-want +got):\n%s", diff)
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup found a provider that is not pinned")
	}
}

func TestBuildAllUnknownName(t *testing.T) {
	_, err := BuildAll(context.Background(), t.TempDir(), "nope")
	if err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("BuildAll(nope) = %v, want an error naming nope", err)
	}
}

// The recorded Version of each buildable provider is the newest release its
// changelog names (an unreleased section counts as the release before it).
func TestVersionsMatchChangelogs(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads modules")
	}
	for _, s := range Specs() {
		if s.Name == "null" {
			continue // the proxy refuses the pinned version
		}
		t.Run(s.Name, func(t *testing.T) {
			dir := moduleDir(t, s)
			got := changelogVersion(t, filepath.Join(dir, "CHANGELOG.md"))
			if got != s.Version {
				t.Errorf("changelog of %s@%s says %s, Spec.Version is %s", s.Module, s.ModuleVersion, got, s.Version)
			}
		})
	}
}

func moduleDir(t *testing.T, s Spec) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", s.Module+"@"+s.ModuleVersion)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOWORK=off", "GONOSUMDB="+s.Module, "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v\n%s", s.Module, err, out)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil {
		t.Fatal(err)
	}
	return info.Dir
}

var releaseHeading = regexp.MustCompile(`^## (\d+\.\d+\.\d+) \(`)

func changelogVersion(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := releaseHeading.FindStringSubmatch(sc.Text()); m != nil {
			return m[1]
		}
	}
	t.Fatalf("%s names no release", path)
	return ""
}

// Building twice reuses the cached binary.
func TestBuildCaches(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a provider")
	}
	dir, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	s, _ := Lookup("time")
	p1, err := Build(context.Background(), dir, s)
	if err != nil {
		t.Fatal(err)
	}
	fi1, err := os.Stat(p1)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := Build(context.Background(), dir, s)
	if err != nil {
		t.Fatal(err)
	}
	fi2, _ := os.Stat(p2)
	if p1 != p2 || !fi1.ModTime().Equal(fi2.ModTime()) {
		t.Errorf("second Build rebuilt: %s (%v) then %s (%v)", p1, fi1.ModTime(), p2, fi2.ModTime())
	}
	if fi1.Mode()&0o111 == 0 {
		t.Errorf("%s is not executable", p1)
	}
}

func TestLinkInto(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a provider")
	}
	cache, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	plugins := t.TempDir()
	for i := 0; i < 2; i++ { // linking again is harmless
		got, err := LinkInto(context.Background(), cache, plugins, "time")
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"time": filepath.Join(plugins, "terraform-provider-time_v0.14.1")}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if fi, err := os.Stat(got["time"]); err != nil || fi.Mode()&0o111 == 0 {
			t.Errorf("linked binary: %v, %v", fi, err)
		}
	}
}
