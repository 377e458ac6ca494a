package schemacache

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// TestSumIsRecorded shows the binary is hashed once per path,
// size and modification time: a sums record that matches them is trusted.
func TestSumIsRecorded(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	must(t, "writing", os.WriteFile(bin, []byte("one"), 0o755))
	c := Cache{Dir: filepath.Join(dir, "cache")}
	stamp := time.Now().Add(-time.Hour)
	must(t, "touching", os.Chtimes(bin, stamp, stamp))
	sum := c.Sum(bin)
	must(t, "rewriting", os.WriteFile(bin, []byte("two"), 0o755))
	must(t, "touching", os.Chtimes(bin, stamp, stamp))
	if got := c.Sum(bin); got != sum {
		t.Errorf("Sum after a same-size, same-time change = %s, want the recorded %s", got, sum)
	}
	must(t, "touching", os.Chtimes(bin, time.Now(), time.Now()))
	if got := c.Sum(bin); got == sum || len(got) != 64 {
		t.Errorf("Sum after the modification time changed = %q, want a fresh checksum", got)
	}
}

// TestSumFollowsLinks: a link pointed at another binary of the
// same size and modification time gets that binary's checksum, not the
// one recorded for the link's old target.
func TestSumFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	stamp := time.Now().Add(-time.Hour)
	a, b, link := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "link")
	for path, data := range map[string]string{a: "one", b: "two"} {
		must(t, "writing", os.WriteFile(path, []byte(data), 0o755))
		must(t, "touching", os.Chtimes(path, stamp, stamp))
	}
	c := Cache{Dir: filepath.Join(dir, "cache")}
	must(t, "linking", os.Symlink(a, link))
	first := c.Sum(link)
	must(t, "unlinking", os.Remove(link))
	must(t, "linking", os.Symlink(b, link))
	if got, want := c.Sum(link), c.Sum(b); got != want || got == first {
		t.Errorf("Sum(link to b) = %s, want b's %s (a's was %s)", got, want, first)
	}
}

// TestGetPut: an entry comes back as kept; a damaged, truncated or
// missing entry, or a cache without a directory, is a miss.
func TestGetPut(t *testing.T) {
	tests := map[string]struct {
		damage func(t *testing.T, path string)
		dir    bool
		want   []byte
		ok     bool
	}{
		"kept": {nil, true, []byte("schema"), true},
		"flipped byte": {func(t *testing.T, p string) {
			b, err := os.ReadFile(p)
			must(t, "reading", err)
			b[len(b)-1] ^= 1
			must(t, "writing", os.WriteFile(p, b, 0o644))
		}, true, nil, false},
		"truncated": {func(t *testing.T, p string) { must(t, "writing", os.WriteFile(p, []byte("x"), 0o644)) }, true, nil, false},
		"removed":   {func(t *testing.T, p string) { must(t, "removing", os.Remove(p)) }, true, nil, false},
		"no cache":  {nil, false, nil, false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			c := Cache{}
			if tt.dir {
				c.Dir = t.TempDir()
			}
			c.Put("e", []byte("schema"))
			if tt.damage != nil {
				tt.damage(t, c.Path("e"))
			}
			got, ok := c.Get("e")
			if ok != tt.ok {
				t.Errorf("Get ok = %v, want %v", ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Get (-want +got):\n%s", diff)
			}
		})
	}
}
