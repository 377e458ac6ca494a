package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// packagesCache keeps what a language host answered GetRequiredPackages
// for a program, so that a run of an unchanged program does not ask it
// again: pulumi-language-yaml parses the whole program to answer, and
// parses it again in Run (answering cost it 0.2 to 0.4 s of CPU for
// 2,000 resources, before the program could start). An answer is reused
// only while the host binary (path, size, modification time), the runtime
// options and the content of every file the host reads to answer
// (Main.json, and each .yaml file under the program's directory, which
// pulumi-language-yaml searches for package declarations) are what they
// were; a program made by a command (the compiler option) is always
// asked. One entry per program directory, replaced when it changes.
type packagesCache struct {
	dir     string // "" keeps nothing
	runtime string // only yaml's answers are kept: the files summed are what its host reads
}

// cachedPackages is an entry: the fingerprint the answer was given for.
type cachedPackages struct {
	Fingerprint string
	Packages    []Package
}

// required returns the packages the program needs, from the cache or
// from the host.
func (pc packagesCache) required(ctx context.Context, c *Client, info ProgramInfo) ([]Package, error) {
	fp, ok := pc.fingerprint(c.cfg.Path, info)
	if ok {
		if pkgs, hit := pc.load(info.ProgramDir, fp); hit {
			return pkgs, nil
		}
	}
	pkgs, err := c.RequiredPackages(ctx, info)
	if err == nil && ok {
		pc.store(info.ProgramDir, fp, pkgs)
	}
	return pkgs, err
}

// fingerprint sums what the host's answer depends on; false if the
// answer may depend on more (a compiler), or a file cannot be read.
func (pc packagesCache) fingerprint(host string, info ProgramInfo) (string, bool) {
	if pc.dir == "" || pc.runtime != "yaml" || info.Options["compiler"] != nil {
		return "", false
	}
	st, err := os.Stat(host)
	if err != nil {
		return "", false
	}
	opts, err := json.Marshal(info.Options)
	if err != nil {
		return "", false
	}
	h := sha256.New()
	fmt.Fprintf(h, "host %q %d %d\noptions %s\n", host, st.Size(), st.ModTime().UnixNano(), opts)
	err = filepath.WalkDir(info.ProgramDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(info.ProgramDir, path)
		if err != nil || (filepath.Ext(rel) != ".yaml" && rel != "Main.json") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "file %q %d\n", rel, len(data))
		_, _ = h.Write(data)
		return nil
	})
	if err != nil {
		return "", false
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// entry is the file of a program directory's entry.
func (pc packagesCache) entry(programDir string) string {
	sum := sha256.Sum256([]byte(programDir))
	return filepath.Join(pc.dir, hex.EncodeToString(sum[:12])+".json")
}

// load returns the entry's packages if its fingerprint is fp.
func (pc packagesCache) load(programDir, fp string) ([]Package, bool) {
	data, err := os.ReadFile(pc.entry(programDir))
	if err != nil {
		return nil, false
	}
	var e cachedPackages
	if json.Unmarshal(data, &e) != nil || e.Fingerprint != fp {
		return nil, false
	}
	return e.Packages, true
}

// store replaces the entry; the cache is an optimisation, so a failure
// to write it is not an error.
func (pc packagesCache) store(programDir, fp string, pkgs []Package) {
	data, err := json.Marshal(cachedPackages{Fingerprint: fp, Packages: pkgs})
	if err != nil || os.MkdirAll(pc.dir, 0o700) != nil {
		return
	}
	f, err := os.CreateTemp(pc.dir, ".entry-*")
	if err != nil {
		return
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), pc.entry(programDir)) != nil {
		_ = os.Remove(f.Name())
	}
}
