package resource

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Asset is a blob: literal text, a file path, or a URI. Hash is the hex
// SHA-256 of its contents.
type Asset struct {
	Hash string
	Text string
	Path string
	URI  string
}

// NewTextAsset returns an asset holding text.
func NewTextAsset(text string) *Asset {
	return &Asset{Text: text, Hash: hashBytes([]byte(text))}
}

// NewPathAsset returns an asset for the file at path, hashing its contents.
func NewPathAsset(path string) (*Asset, error) {
	a := &Asset{Path: path}
	return a, a.ensureHash()
}

// NewURIAsset returns an asset for the contents at uri (file, http or https),
// hashing them.
func NewURIAsset(uri string) (*Asset, error) {
	a := &Asset{URI: uri}
	return a, a.ensureHash()
}

// IsText, IsPath and IsURI tell what the asset refers to.
func (a *Asset) IsText() bool { return a.Path == "" && a.URI == "" }

// IsPath reports whether the asset is a file path.
func (a *Asset) IsPath() bool { return a.Path != "" }

// IsURI reports whether the asset is a URI.
func (a *Asset) IsURI() bool { return a.URI != "" }

// Bytes reads the asset's contents.
func (a *Asset) Bytes() ([]byte, error) {
	switch {
	case a.Path != "":
		b, err := os.ReadFile(a.Path)
		if err != nil {
			return nil, fmt.Errorf("reading asset: %w", err)
		}
		return b, nil
	case a.URI != "":
		return readURI(a.URI)
	}
	return []byte(a.Text), nil
}

func (a *Asset) ensureHash() error {
	if a.Hash != "" {
		return nil
	}
	b, err := a.Bytes()
	if err != nil {
		return err
	}
	a.Hash = hashBytes(b)
	return nil
}

// Equal reports whether two assets have the same hash and source. Assets
// whose hashes are both known and equal are equal whatever their source.
func (a *Asset) Equal(b *Asset) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Hash != "" && b.Hash != "" {
		return a.Hash == b.Hash
	}
	return *a == *b
}

func (a *Asset) String() string {
	switch {
	case a.Path != "":
		return fmt.Sprintf("asset(file:%s)", a.Path)
	case a.URI != "":
		return fmt.Sprintf("asset(uri:%s)", a.URI)
	}
	return fmt.Sprintf("asset(text:%s)", shortHash(a.Hash))
}

// Archive is a map of names to assets and archives, or a path or URI of a
// directory, tar, gzipped tar or zip file. Hash is the hex SHA-256 of its
// contents.
type Archive struct {
	Hash   string
	Assets map[string]Value // each an asset or archive value
	Path   string
	URI    string
}

// NewAssetArchive returns an archive of the given members, each an asset or
// archive value.
func NewAssetArchive(members map[string]Value) (*Archive, error) {
	a := &Archive{Assets: members}
	return a, a.ensureHash()
}

// NewPathArchive returns an archive of the directory or archive file at path.
func NewPathArchive(path string) (*Archive, error) {
	a := &Archive{Path: path}
	return a, a.ensureHash()
}

// NewURIArchive returns an archive of the archive file at uri.
func NewURIArchive(uri string) (*Archive, error) {
	a := &Archive{URI: uri}
	return a, a.ensureHash()
}

func (a *Archive) ensureHash() error {
	if a.Hash != "" {
		return nil
	}
	var err error
	switch {
	case a.Path != "":
		a.Hash, err = hashPath(a.Path)
	case a.URI != "":
		var b []byte
		if b, err = readURI(a.URI); err == nil {
			a.Hash = hashBytes(b)
		}
	default:
		a.Hash, err = hashMembers(a.Assets)
	}
	return err
}

// hashMembers hashes the sorted member names with each member's hash, so an
// archive's hash changes when any member's contents or name change.
func hashMembers(members map[string]Value) (string, error) {
	names := make([]string, 0, len(members))
	for n := range members {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		m := members[n]
		var sub string
		switch m.Kind() {
		case AssetKind:
			if err := m.Asset().ensureHash(); err != nil {
				return "", err
			}
			sub = m.Asset().Hash
		case ArchiveKind:
			if err := m.Archive().ensureHash(); err != nil {
				return "", err
			}
			sub = m.Archive().Hash
		default:
			return "", fmt.Errorf("archive member %q is a %s, not an asset or archive", n, m.Kind())
		}
		fmt.Fprintf(h, "%d:%s=%s;", len(n), n, sub)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashPath hashes a file's bytes, or a directory's files and their relative
// names in walk order.
func hashPath(path string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("reading archive: %w", err)
	}
	if !info.IsDir() {
		b, err := os.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("reading archive: %w", err)
		}
		return hashBytes(b), nil
	}
	h := sha256.New()
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(path, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%d:%s=%s;", len(rel), filepath.ToSlash(rel), hashBytes(b))
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("reading archive directory: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Equal reports whether two archives have the same hash, or, if a hash is
// missing, the same source.
func (a *Archive) Equal(b *Archive) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Hash != "" && b.Hash != "" {
		return a.Hash == b.Hash
	}
	if a.Path != b.Path || a.URI != b.URI || len(a.Assets) != len(b.Assets) {
		return false
	}
	for k, v := range a.Assets {
		if w, ok := b.Assets[k]; !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}

func (a *Archive) String() string {
	switch {
	case a.Path != "":
		return fmt.Sprintf("archive(file:%s)", a.Path)
	case a.URI != "":
		return fmt.Sprintf("archive(uri:%s)", a.URI)
	}
	return fmt.Sprintf("archive(%d members, %s)", len(a.Assets), shortHash(a.Hash))
}

func hashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func readURI(uri string) ([]byte, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return nil, fmt.Errorf("invalid asset URI %q: %w", uri, err)
	}
	switch strings.ToLower(u.Scheme) {
	case "file":
		return os.ReadFile(u.Path)
	case "http", "https":
		return fetch(uri)
	}
	return nil, fmt.Errorf("asset URI %q: scheme %q is not supported (use file, http or https)", uri, u.Scheme)
}

func fetch(uri string) ([]byte, error) {
	client := http.Client{Timeout: time.Minute}
	resp, err := client.Get(uri)
	if err != nil {
		return nil, fmt.Errorf("fetching asset: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching asset %s: %s", uri, resp.Status)
	}
	return io.ReadAll(resp.Body)
}
