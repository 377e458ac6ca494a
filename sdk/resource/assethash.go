package resource

import "path/filepath"

// WithHashes returns v with the hash of every asset, and of every archive
// with a path or URI, that has none yet, relative paths read against dir
// (the program's working directory). Pulumi's engine hashes what a
// program registers so, which makes a changed file behind an unchanged
// path a changed input, and records the hash in the state. v is not
// changed: the assets and archives hashed are copies. An archive of
// members keeps the hash its members give, as it was made.
func WithHashes(v Value, dir string) (Value, error) {
	if !unhashed(v) {
		return v, nil // nothing to hash: v itself, not a copy
	}
	var err error
	out := v.Map(func(e Value) Value {
		if err != nil {
			return e
		}
		switch e.Kind() {
		case AssetKind:
			if a := e.Asset(); a.Hash == "" {
				c := *a
				read := &Asset{Text: a.Text, Path: under(dir, a.Path), URI: a.URI}
				if err = read.ensureHash(); err == nil {
					c.Hash = read.Hash
				}
				return NewAsset(&c)
			}
		case ArchiveKind:
			if a := e.Archive(); a.Hash == "" && (a.Path != "" || a.URI != "") {
				c := *a
				read := &Archive{Path: under(dir, a.Path), URI: a.URI}
				if err = read.ensureHash(); err == nil {
					c.Hash = read.Hash
				}
				return NewArchive(&c)
			}
		}
		return e
	})
	return out, err
}

// under is path read against dir when it is relative.
func under(dir, path string) string {
	if path == "" || filepath.IsAbs(path) || dir == "" {
		return path
	}
	return filepath.Join(dir, path)
}

// unhashed reports whether v holds an asset, or an archive with a path or
// URI, without a hash.
func unhashed(v Value) bool {
	switch v.Kind() {
	case AssetKind:
		return v.Asset().Hash == ""
	case ArchiveKind:
		a := v.Archive()
		return a.Hash == "" && (a.Path != "" || a.URI != "")
	case SecretKind:
		return unhashed(v.SecretElement())
	case ArrayKind:
		for _, e := range v.Array() {
			if unhashed(e) {
				return true
			}
		}
	case ObjectKind:
		for _, e := range v.Object() {
			if unhashed(e) {
				return true
			}
		}
	}
	return false
}
