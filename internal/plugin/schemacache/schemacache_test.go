package schemacache

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
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

// TestSumIsRecorded shows the binary is hashed once per path and stamp:
// a sums record whose stamp matches the binary is trusted (here a record
// with a made-up sum, which only the record can have given), and a
// change of modification time hashes again.
func TestSumIsRecorded(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	must(t, "writing", os.WriteFile(bin, []byte("one"), 0o755))
	c := Cache{Dir: filepath.Join(dir, "cache")}
	stamp := time.Now().Add(-time.Hour)
	must(t, "touching", os.Chtimes(bin, stamp, stamp))
	sum := c.Sum(bin)
	record := recordOf(t, c, bin)
	b, err := os.ReadFile(record)
	must(t, "reading the record", err)
	made := strings.Repeat("ab", 32)
	must(t, "editing the record", os.WriteFile(record, []byte(strings.Replace(string(b), sum, made, 1)), 0o644))
	if got := c.Sum(bin); got != made {
		t.Errorf("Sum of an unchanged binary = %s, want the recorded %s", got, made)
	}
	must(t, "touching", os.Chtimes(bin, time.Now(), time.Now()))
	if got := c.Sum(bin); got != sum {
		t.Errorf("Sum after the modification time changed = %q, want a fresh checksum %s", got, sum)
	}
}

// TestKnownSum: KnownSum answers only from the sums record: nothing
// before the binary was hashed, nothing once it changed, and never a
// hash of its own (nor a record).
func TestKnownSum(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	must(t, "writing", os.WriteFile(bin, []byte("one"), 0o755))
	c := Cache{Dir: filepath.Join(dir, "cache")}
	stamp := time.Now().Add(-time.Hour)
	must(t, "touching", os.Chtimes(bin, stamp, stamp))
	if got := c.KnownSum(bin); got != "" {
		t.Errorf("KnownSum before any Sum = %q, want \"\"", got)
	}
	if _, err := os.Stat(recordOf(t, c, bin)); !os.IsNotExist(err) {
		t.Errorf("KnownSum wrote a record (stat: %v)", err)
	}
	sum := c.Sum(bin)
	if got := c.KnownSum(bin); got != sum {
		t.Errorf("KnownSum after Sum = %q, want %s", got, sum)
	}
	must(t, "touching", os.Chtimes(bin, time.Now(), time.Now()))
	if got := c.KnownSum(bin); got != "" {
		t.Errorf("KnownSum of a changed binary = %q, want \"\"", got)
	}
	if got := (Cache{}).KnownSum(bin); got != "" {
		t.Errorf("KnownSum without a cache = %q, want \"\"", got)
	}
}

// TestSumSeesARewriteWithTimesPutBack: a binary rewritten in place with
// the same size and its modification time put back is hashed again (its
// change time moved), as is one replaced by a rename (a new inode); a
// record that is damaged or cannot be read is a miss, never an error.
func TestSumSeesARewriteWithTimesPutBack(t *testing.T) {
	if !TrustedStamps {
		t.Skip("stamps carry no change time or inode on this system")
	}
	stamp := time.Now().Add(-time.Hour)
	tests := map[string]func(t *testing.T, c Cache, bin string){
		"rewritten in place": func(t *testing.T, _ Cache, bin string) {
			time.Sleep(10 * time.Millisecond) // a change time distinct from the first write's
			must(t, "rewriting", os.WriteFile(bin, []byte("two"), 0o755))
		},
		"replaced by a rename": func(t *testing.T, _ Cache, bin string) {
			must(t, "writing", os.WriteFile(bin+".new", []byte("two"), 0o755))
			must(t, "renaming", os.Rename(bin+".new", bin))
		},
		"record damaged": func(t *testing.T, c Cache, bin string) {
			must(t, "rewriting", os.WriteFile(bin, []byte("two"), 0o755))
			must(t, "damaging", os.WriteFile(recordOf(t, c, bin), []byte("\x00garbage"), 0o644))
		},
		"record unreadable": func(t *testing.T, c Cache, bin string) {
			must(t, "rewriting", os.WriteFile(bin, []byte("two"), 0o755))
			record := recordOf(t, c, bin)
			must(t, "removing", os.Remove(record))
			must(t, "making a directory", os.Mkdir(record, 0o755))
		},
	}
	for name, change := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			bin := filepath.Join(dir, "bin")
			must(t, "writing", os.WriteFile(bin, []byte("one"), 0o755))
			must(t, "touching", os.Chtimes(bin, stamp, stamp))
			c := Cache{Dir: filepath.Join(dir, "cache")}
			first := c.Sum(bin)
			change(t, c, bin)
			must(t, "touching", os.Chtimes(bin, stamp, stamp))
			want := sha256.Sum256([]byte("two"))
			if got := c.Sum(bin); got != hex.EncodeToString(want[:]) {
				t.Errorf("Sum = %s, want the new contents' %x (the old was %s)", got, want, first)
			}
		})
	}
}

// recordOf is the path of bin's sums record.
func recordOf(t *testing.T, c Cache, bin string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(bin)
	must(t, "resolving", err)
	name := sha256.Sum256([]byte(real))
	return filepath.Join(c.Dir, "sums", hex.EncodeToString(name[:]))
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
