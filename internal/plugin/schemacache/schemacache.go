// Package schemacache keeps plugins' schema answers across runs, keyed by
// the checksum of the plugin binary, so a provider is not asked for (and
// plinth does not wait for) a schema it gave before. It stores and checks
// bytes only: what a schema is, when a provider may be spared the call,
// and how an answer is decoded are the adapters' (internal/provider/tfplugin
// and pulumirpc), which name their entries.
//
// The cache is an optimisation only: nothing in it is ever an error. An
// entry that cannot be read, or fails its checksum, is a miss; a write
// that fails is dropped. Writes go through a temporary file and a rename,
// so concurrent runs never see half an entry.
//
// Layout under Dir:
//
//	sums/<sha256 of the binary's real path>  "<stamp> sha256:<sum>"
//	v1/<entry name>                           SHA-256 of the data, then the data
//
// The sums spare hashing a large binary on every run: a binary whose
// resolved path and stamp are unchanged keeps its checksum. The stamp is
// the file's size and modification time and, where the system has them,
// its change time, inode and device: a binary rewritten in place with its
// size and modification time put back (os.Chtimes) still gets a new
// change time, which no user can set, and a binary replaced by a rename
// gets a new inode. So the sum is as good as hashing for a check that
// must not be fooled (the dependency lock's, internal/cli), short of
// someone who can write the cache itself, who could as well write the
// binary. The checksum in front of an entry catches a damaged one, which
// a lenient decoder (protobuf's) might otherwise read as a smaller schema.
package schemacache

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Cache is a schema cache directory; the zero Cache (Dir "") keeps
// nothing.
type Cache struct{ Dir string }

// format names the layout of entries; a change of layout changes it, so
// old entries are never misread.
const format = "v1"

// Sum returns the SHA-256 of the binary at path in hex, from the sums
// record when the binary's size and modification time match it, else by
// hashing the binary (and recording the result); "" if there is no cache
// or the binary cannot be read.
func (c Cache) Sum(path string) string {
	abs, stamp, record, sum := c.recorded(path)
	if sum != "" || abs == "" {
		return sum
	}
	sum, err := fileSum(abs)
	if err != nil {
		return ""
	}
	_ = writeAtomic(record, []byte(stamp+" sha256:"+sum+"\n"))
	return sum
}

// KnownSum is Sum when the sums record has the binary as it is now, and
// "" otherwise: it never hashes the binary, so it costs a stat and a
// small read, for a caller that must not wait for a large binary to be
// hashed.
func (c Cache) KnownSum(path string) string {
	_, _, _, sum := c.recorded(path)
	return sum
}

// recorded looks the binary at path up in the sums: its real path, its
// stamp, the file of its record and the sum recorded for that stamp (""
// if none). abs is "" if there is no cache or the binary cannot be read.
func (c Cache) recorded(path string) (abs, stamp, record, sum string) {
	if c.Dir == "" {
		return "", "", "", ""
	}
	// The real path: a link that is pointed at another binary (as plugin
	// directories and caches link) must not inherit the old one's sum.
	abs, err := filepath.Abs(path)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return "", "", "", ""
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", "", "", ""
	}
	stamp = stampOf(fi)
	name := sha256.Sum256([]byte(abs))
	record = filepath.Join(c.Dir, "sums", hex.EncodeToString(name[:]))
	if b, err := os.ReadFile(record); err == nil {
		if s, sum, ok := strings.Cut(strings.TrimSpace(string(b)), " sha256:"); ok && s == stamp && len(sum) == 64 {
			return abs, stamp, record, sum
		}
	}
	return abs, stamp, record, ""
}

// fileSum is the SHA-256 of a file's contents in hex.
func fileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Path is where the entry called name is kept.
func (c Cache) Path(name string) string { return filepath.Join(c.Dir, format, name) }

// Get returns the entry called name; ok is false when there is none, or
// it cannot be read or fails its checksum.
func (c Cache) Get(name string) (data []byte, ok bool) {
	if c.Dir == "" || name == "" {
		return nil, false
	}
	b, err := os.ReadFile(c.Path(name))
	if err != nil || len(b) < sha256.Size {
		return nil, false
	}
	data = b[sha256.Size:]
	if sum := sha256.Sum256(data); string(sum[:]) != string(b[:sha256.Size]) {
		return nil, false
	}
	return data, true
}

// Put keeps data as the entry called name, replacing any; a failure is
// dropped (the next run asks the plugin again).
func (c Cache) Put(name string, data []byte) {
	if c.Dir == "" || name == "" {
		return
	}
	sum := sha256.Sum256(data)
	_ = writeAtomic(c.Path(name), append(sum[:], data...))
}

// writeAtomic writes data to path through a temporary file in the same
// directory and a rename.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil || cerr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %v %v", path, werr, cerr)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
