package install

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// ModuleInstaller installs the modules a configuration calls into
// .terraform/modules and writes .terraform/modules/modules.json as
// terraform 1.11 writes it, so that either tool can use what the other
// installed. It is not modified once used.
type ModuleInstaller struct {
	// Dir is the configuration directory.
	Dir string
	// Registry answers registry module sources (modules.v1) and makes
	// the HTTP requests for archives.
	Registry *Registry
	// Files lists a module directory's configuration files
	// (internal/program/hcl.Files).
	Files func(string) ([]string, error)
	// Upgrade fetches every remote module again, choosing the newest
	// registry version the constraints allow.
	Upgrade bool
	// Out gets terraform's progress lines; nil discards them.
	Out io.Writer
	// Git is the git executable; "" is "git" on PATH.
	Git string
}

// ManifestEntry is one module of modules.json: its key ("" for the root,
// "a.b" for module b called by module a), its source as written (a
// registry source in full, with its host), the registry version chosen,
// and its directory relative to the configuration, with slashes.
type ManifestEntry struct {
	Key     string `json:"Key"`
	Source  string `json:"Source"`
	Version string `json:"Version,omitempty"`
	Dir     string `json:"Dir"`
}

// Manifest is modules.json.
type Manifest struct {
	Modules []ManifestEntry `json:"Modules"`
}

// ManifestPath is modules.json's path under a configuration directory.
func ManifestPath(dir string) string {
	return filepath.Join(dir, ".terraform", "modules", "modules.json")
}

// ReadManifest reads a configuration's modules.json; a missing one is
// empty.
func ReadManifest(dir string) (Manifest, error) {
	var m Manifest
	data, err := os.ReadFile(ManifestPath(dir))
	if os.IsNotExist(err) {
		return m, nil
	}
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("%s is not valid JSON (%v); delete it and run plinth init again", ManifestPath(dir), err)
	}
	return m, nil
}

// Bytes is the manifest as terraform writes it: compact JSON, entries by
// key, no final newline.
func (m Manifest) Bytes() []byte {
	sort.Slice(m.Modules, func(i, j int) bool { return m.Modules[i].Key < m.Modules[j].Key })
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // strings only: cannot fail
	}
	return b
}

// ModuleError is a module call that could not be installed, with where
// it is written.
type ModuleError struct {
	Key    string
	Source string
	Range  hcl.Range
	Err    error
}

func (e *ModuleError) Error() string {
	return fmt.Sprintf("%s: module %q (source %q) could not be installed: %v", e.Range, e.Key, e.Source, e.Err)
}

func (e *ModuleError) Unwrap() error { return e.Err }

// call is one module block.
type call struct {
	name, source, version string
	rng                   hcl.Range
}

// modWalk is one run of ModuleInstaller.Install.
type modWalk struct {
	in      *ModuleInstaller
	parser  *hclparse.Parser
	old     map[string]ManifestEntry
	staging string            // where new packages are unpacked first
	staged  map[string]string // staged package directory by key
	entries []ManifestEntry
}

// Install walks the configuration's module blocks, depth first in name
// order as terraform does, installs each remote module (reusing one
// modules.json says is installed from the same source, unless
// upgrading) and writes modules.json. Nothing is installed, and the
// manifest is left alone, unless every module is.
func (in *ModuleInstaller) Install(ctx context.Context) error {
	old, err := ReadManifest(in.Dir)
	if err != nil {
		return err
	}
	w := &modWalk{in: in, parser: hclparse.NewParser(), old: map[string]ManifestEntry{}, staged: map[string]string{}}
	for _, e := range old.Modules {
		w.old[e.Key] = e
	}
	modules := filepath.Join(in.Dir, ".terraform", "modules")
	if err := os.MkdirAll(modules, 0o755); err != nil {
		return err
	}
	if w.staging, err = os.MkdirTemp(filepath.Join(in.Dir, ".terraform"), ".modules-installing-"); err != nil {
		return err
	}
	defer os.RemoveAll(w.staging)
	w.entries = []ManifestEntry{{Key: "", Source: "", Dir: "."}}
	if err := w.module(ctx, nil, ".", 0); err != nil {
		return err
	}
	for key, dir := range w.staged {
		if err := replaceDir(dir, filepath.Join(modules, key)); err != nil {
			return fmt.Errorf("module %s: %w", key, err)
		}
	}
	return os.WriteFile(ManifestPath(in.Dir), Manifest{Modules: w.entries}.Bytes(), 0o644)
}

func (in *ModuleInstaller) printf(format string, args ...any) {
	if in.Out != nil {
		fmt.Fprintf(in.Out, format, args...)
	}
}

// HasModuleCalls reports whether the root module calls any module (terraform
// prints "Initializing modules..." only then).
func HasModuleCalls(dir string, files func(string) ([]string, error)) bool {
	w := &modWalk{parser: hclparse.NewParser(), in: &ModuleInstaller{Dir: dir, Files: files}}
	calls, err := w.calls(dir)
	return err == nil && len(calls) > 0
}

// module installs the calls of the module at key path, whose directory
// is rel (relative to the configuration, with slashes, as recorded).
func (w *modWalk) module(ctx context.Context, key []string, rel string, depth int) error {
	calls, err := w.calls(w.onDisk(rel))
	if err != nil {
		return err
	}
	for _, c := range calls {
		k := strings.Join(append(append([]string(nil), key...), c.name), ".")
		if depth >= 20 {
			return &ModuleError{Key: k, Source: c.source, Range: c.rng, Err: fmt.Errorf("modules are nested more than 20 deep; a module probably calls itself")}
		}
		entry, err := w.install(ctx, k, rel, c)
		if err != nil {
			return &ModuleError{Key: k, Source: c.source, Range: c.rng, Err: err}
		}
		if prev, ok := w.old[k]; !ok || prev != entry || w.staged[k] != "" || w.in.Upgrade {
			w.in.printf("- %s in %s\n", k, entry.Dir) // as terraform, only what changed
		}
		w.entries = append(w.entries, entry)
		if err := w.module(ctx, append(append([]string(nil), key...), c.name), entry.Dir, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// install installs one call (key k, called from the module at rel) and
// returns its manifest entry.
func (w *modWalk) install(ctx context.Context, k, rel string, c call) (ManifestEntry, error) {
	if c.version != "" && (isLocal(c.source) || !isRegistry(c.source)) {
		return ManifestEntry{}, fmt.Errorf("only registry modules have versions; remove the version argument, or pin the version in the source (?ref= for git)")
	}
	if isLocal(c.source) {
		return ManifestEntry{Key: k, Source: localSource(c.source), Dir: path.Clean(path.Join(rel, c.source))}, nil
	}
	src, err := parseModuleSource(c.source)
	if err != nil {
		return ManifestEntry{}, err
	}
	if prev, ok := w.old[k]; ok && !w.in.Upgrade && w.reusable(prev, src, c) {
		return prev, nil
	}
	return w.fetch(ctx, k, src, c)
}

// reusable reports whether the installed module prev still answers the
// call: same source, a version the constraints allow, and its directory
// there.
func (w *modWalk) reusable(prev ManifestEntry, src moduleSource, c call) bool {
	if prev.Source != src.recorded() {
		return false
	}
	if src.registry != nil && !versionAllowed(prev.Version, c.version) {
		return false
	}
	info, err := os.Stat(filepath.Join(w.in.Dir, filepath.FromSlash(prev.Dir)))
	return err == nil && info.IsDir()
}

// onDisk is where a recorded module directory is now: in the staging
// directory if it was installed in this run.
func (w *modWalk) onDisk(rel string) string {
	for key, staged := range w.staged {
		prefix := ".terraform/modules/" + key
		if rel == prefix || strings.HasPrefix(rel, prefix+"/") {
			return filepath.Join(staged, filepath.FromSlash(strings.TrimPrefix(rel, prefix)))
		}
	}
	return filepath.Join(w.in.Dir, filepath.FromSlash(rel))
}

var callFileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "module", LabelNames: []string{"name"}}}}

// calls reads the module blocks in a directory, by name.
func (w *modWalk) calls(dir string) ([]call, error) {
	names, err := w.in.Files(dir)
	if err != nil {
		return nil, fmt.Errorf("reading the configuration in %s: %w", dir, err)
	}
	var out []call
	for _, name := range names {
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		var f *hcl.File
		var ds hcl.Diagnostics
		if strings.HasSuffix(name, ".json") {
			f, ds = w.parser.ParseJSONFile(name)
		} else {
			f, ds = w.parser.ParseHCLFile(name)
		}
		if ds.HasErrors() {
			return nil, ds
		}
		content, _, ds := f.Body.PartialContent(callFileSchema)
		if ds.HasErrors() {
			return nil, ds
		}
		for _, b := range content.Blocks {
			out = append(out, call{name: b.Labels[0], source: callSource(b), version: callVersion(b), rng: b.DefRange})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// callVersion is a module call's version constraint ("" for none).
func callVersion(b *hcl.Block) string {
	attrs, _ := b.Body.JustAttributes()
	a := attrs["version"]
	if a == nil {
		return ""
	}
	v, ds := a.Expr.Value(nil)
	if ds.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type().FriendlyName() != "string" {
		return ""
	}
	return v.AsString()
}

// isRegistry reports whether a source is a registry module address.
func isRegistry(source string) bool {
	src, err := parseModuleSource(source)
	return err == nil && src.registry != nil
}

// localSource is a local path as terraform records it in modules.json:
// slashes, cleaned, and starting with ./ unless it starts with ../ ("../"
// is "./..", "../../" is "../..").
func localSource(s string) string {
	clean := path.Clean(strings.ReplaceAll(s, "\\", "/"))
	if !strings.HasPrefix(clean, "../") {
		clean = "./" + clean
	}
	return clean
}

// isLocal reports whether a source is a local path, which terraform
// records but does not install.
func isLocal(source string) bool {
	return strings.HasPrefix(source, "./") || strings.HasPrefix(source, "../") || source == "." || source == ".."
}
