package tfplugin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// schemaCache keeps providers' GetProviderSchema answers across runs, so a
// provider that promises to answer without being asked for its schema
// (ServerCapabilities.GetProviderSchemaOptional, as Terraform itself
// relies on) is started without the call. Entries are keyed by the SHA-256
// of the provider binary and the negotiated protocol: a rebuilt or
// upgraded binary misses. An entry holds the answer exactly as it came
// off the wire (protobuf), decoded by the same converter as a live answer,
// so the cache has no codec of its own to drift, and fields a newer
// provider sends survive in it.
//
// The cache is an optimisation only: any failure to read, hash or write
// is ignored (the provider is asked), and a corrupt entry is overwritten
// by the next good answer. Writes go through a temporary file and a
// rename, so concurrent runs never see half an entry.
//
// Layout under dir:
//
//	sums/<sha256 of the binary's path>   "<size> <mtime ns> <sha256 of the binary>"
//	v1/<sha256 of the binary>-p<protocol>.pb  SHA-256 of the answer, then the answer
//
// The leading checksum catches a damaged entry, which protobuf's lenient
// decoder might otherwise read as a smaller schema.
//
// The sums spare hashing a large binary on every run: a binary whose
// path, size and modification time are unchanged keeps its checksum.
type schemaCache struct{ dir string }

// schemaCacheFormat names the layout of entries; a change of layout
// changes it, so old entries are never misread.
const schemaCacheFormat = "v1"

// entry returns the entry name for a binary's checksum under protocol, or
// "" if there is no checksum.
func (c schemaCache) entry(sum string, protocol int) string {
	if sum == "" {
		return ""
	}
	return filepath.Join(c.dir, schemaCacheFormat, sum+"-p"+strconv.Itoa(protocol)+".pb")
}

// binarySum returns the binary's SHA-256 in hex, from the sums file when
// the binary's size and modification time match it, else by hashing the
// binary (and recording the result).
func (c schemaCache) binarySum(path string) string {
	// The real path: a link that is pointed at another binary (as plugin
	// directories and caches link) must not inherit the old one's sum.
	abs, err := filepath.Abs(path)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return ""
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return ""
	}
	stamp := strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
	name := sha256.Sum256([]byte(abs))
	record := filepath.Join(c.dir, "sums", hex.EncodeToString(name[:]))
	if b, err := os.ReadFile(record); err == nil {
		if s, sum, ok := strings.Cut(strings.TrimSpace(string(b)), " sha256:"); ok && s == stamp && len(sum) == 64 {
			return sum
		}
	}
	sum, err := fileSum(abs)
	if err != nil {
		return ""
	}
	_ = writeAtomic(record, []byte(stamp+" sha256:"+sum+"\n"))
	return sum
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

// get reads and decodes the entry at key; ok is false on any failure.
func (c schemaCache) get(key string, w wire) (schemaResponse, bool) {
	b, err := os.ReadFile(key)
	if err != nil || len(b) < sha256.Size {
		return schemaResponse{}, false
	}
	raw := b[sha256.Size:]
	if sum := sha256.Sum256(raw); string(sum[:]) != string(b[:sha256.Size]) {
		return schemaResponse{}, false
	}
	resp, err := w.decodeSchema(raw)
	if err != nil || resp.provider == nil || !resp.caps.schemaOptional {
		return schemaResponse{}, false
	}
	return resp, true
}

// put keeps a live answer if the provider allows skipping the call and
// the answer holds no diagnostics (which must be shown on every run).
func (c schemaCache) put(key string, resp schemaResponse) {
	if !resp.caps.schemaOptional || len(resp.diags) > 0 || resp.encode == nil {
		return
	}
	raw, err := resp.encode()
	if err != nil {
		return
	}
	sum := sha256.Sum256(raw)
	_ = writeAtomic(key, append(sum[:], raw...))
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
