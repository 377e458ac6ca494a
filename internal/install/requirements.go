package install

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	tfaddr "github.com/hashicorp/terraform-registry-address"
	"github.com/zclconf/go-cty/cty"
)

// Requirements reads the providers a configuration needs: every
// required_providers entry of the root module and of the modules it
// calls (local paths, and those terraform init installed), and the providers its resources, data sources and provider
// blocks name without declaring (hashicorp/NAME, as terraform assumes).
// Each provider's constraints are every module's, intersected and
// written as terraform's lock file records them (see joinAtoms).
//
// files lists a module directory's configuration files
// (internal/program/hcl.Files). The configuration should have been
// checked already (internal/program/hcl.Load); this reads only what it
// needs. It duplicates a little of that front end, which has no export
// for its combined constraints yet.
func Requirements(dir string, files func(string) ([]string, error)) ([]Requirement, error) {
	r := &reqReader{parser: hclparse.NewParser(), files: files, root: dir, installed: installedModules(dir),
		atoms: map[string][]string{}, addrs: map[string]tfaddr.Provider{}, seen: map[string]bool{}}
	if err := r.module(dir, nil); err != nil {
		return nil, err
	}
	out := make([]Requirement, 0, len(r.addrs))
	for key, addr := range r.addrs {
		if addr.IsBuiltIn() {
			continue // terraform.io/builtin/terraform: nothing to install
		}
		out = append(out, Requirement{Source: addr, Constraints: joinAtoms(r.atoms[key])})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source.String() < out[j].Source.String() })
	return out, nil
}

type reqReader struct {
	parser *hclparse.Parser
	files  func(string) ([]string, error)
	atoms  map[string][]string // constraint atoms by provider address
	addrs  map[string]tfaddr.Provider
	seen   map[string]bool // module directories read
	// root is the configuration's directory; installed are the modules
	// terraform init installed there, directory by module key ("a.b").
	root      string
	installed map[string]string
}

// installedModules reads .terraform/modules/modules.json, which maps
// the key of each module terraform init installed to its directory.
func installedModules(root string) map[string]string {
	out := map[string]string{}
	data, err := os.ReadFile(filepath.Join(root, ".terraform", "modules", "modules.json"))
	if err != nil {
		return out
	}
	var manifest struct {
		Modules []struct{ Key, Dir string } `json:"Modules"`
	}
	if json.Unmarshal(data, &manifest) == nil {
		for _, m := range manifest.Modules {
			out[m.Key] = m.Dir
		}
	}
	return out
}

var reqFileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "terraform"}, {Type: "module", LabelNames: []string{"name"}},
	{Type: "resource", LabelNames: []string{"type", "name"}}, {Type: "data", LabelNames: []string{"type", "name"}},
	{Type: "ephemeral", LabelNames: []string{"type", "name"}}, {Type: "provider", LabelNames: []string{"name"}},
}}

var reqTerraformSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "required_providers"}}}

// module reads one module directory (at module path path) and the
// modules it calls: local ones, and those terraform init installed.
func (r *reqReader) module(dir string, path []string) error {
	if r.seen[dir] {
		return nil
	}
	r.seen[dir] = true
	names, err := r.files(dir)
	if err != nil {
		return fmt.Errorf("reading the configuration in %s: %w", dir, err)
	}
	declared := map[string]bool{}
	var implicit []string
	calls := map[string]string{} // source by call name
	for _, name := range names {
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		content, err := r.file(name)
		if err != nil {
			return err
		}
		for _, b := range content.Blocks {
			switch b.Type {
			case "terraform":
				if err := r.terraform(b, declared); err != nil {
					return err
				}
			case "module":
				calls[b.Labels[0]] = callSource(b)
			case "provider":
				implicit = append(implicit, b.Labels[0])
			default:
				implicit = append(implicit, strings.SplitN(b.Labels[0], "_", 2)[0])
			}
		}
	}
	for _, local := range implicit {
		if !declared[local] && local != "terraform" {
			declared[local] = true
			r.add(tfaddr.NewProvider(tfaddr.DefaultProviderRegistryHost, "hashicorp", local), "")
		}
	}
	for name, source := range calls {
		key := append(append([]string(nil), path...), name)
		sub := ""
		if strings.HasPrefix(source, "./") || strings.HasPrefix(source, "../") {
			sub = filepath.Join(dir, source)
		} else if d, ok := r.installed[strings.Join(key, ".")]; ok {
			sub = filepath.Join(r.root, d)
		}
		if sub == "" || len(key) > 20 {
			continue // not installed: internal/program/hcl.Load says so
		}
		if err := r.module(sub, key); err != nil {
			return err
		}
	}
	return nil
}

func (r *reqReader) file(name string) (*hcl.BodyContent, error) {
	var f *hcl.File
	var ds hcl.Diagnostics
	if strings.HasSuffix(name, ".json") {
		f, ds = r.parser.ParseJSONFile(name)
	} else {
		f, ds = r.parser.ParseHCLFile(name)
	}
	if ds.HasErrors() {
		return nil, ds
	}
	content, _, ds := f.Body.PartialContent(reqFileSchema)
	if ds.HasErrors() {
		return nil, ds
	}
	return content, nil
}

// callSource is a module call's source.
func callSource(b *hcl.Block) string {
	attrs, _ := b.Body.JustAttributes()
	a := attrs["source"]
	if a == nil {
		return ""
	}
	v, ds := a.Expr.Value(nil)
	if ds.HasErrors() || v.Type() != cty.String || v.IsNull() {
		return ""
	}
	return v.AsString()
}

// terraform reads a terraform block's required_providers.
func (r *reqReader) terraform(b *hcl.Block, declared map[string]bool) error {
	content, _, ds := b.Body.PartialContent(reqTerraformSchema)
	if ds.HasErrors() {
		return ds
	}
	for _, rb := range content.Blocks {
		attrs, ds := rb.Body.JustAttributes()
		if ds.HasErrors() {
			return ds
		}
		for local, a := range attrs {
			source, constraint, err := requiredEntry(a)
			if err != nil {
				return err
			}
			if source == "" {
				source = "hashicorp/" + local
			}
			addr, err := tfaddr.ParseProviderSource(source)
			if err != nil {
				return fmt.Errorf("%s: provider %s has an invalid source address %q: %v", a.Range, local, source, err)
			}
			declared[local] = true
			r.add(addr, constraint)
		}
	}
	return nil
}

func requiredEntry(a *hcl.Attribute) (source, constraint string, err error) {
	v, ds := a.Expr.Value(nil)
	if ds.HasErrors() {
		return "", "", ds
	}
	switch {
	case v.Type() == cty.String:
		return "", v.AsString(), nil
	case v.Type().IsObjectType():
		return objString(v, "source"), objString(v, "version"), nil
	}
	return "", "", fmt.Errorf("%s: write each required provider as NAME = { source = \"hashicorp/NAME\", version = \"~> 1.0\" }", a.Range)
}

func objString(obj cty.Value, name string) string {
	if !obj.Type().HasAttribute(name) {
		return ""
	}
	v := obj.GetAttr(name)
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}

// add records a provider and the atoms of one constraint on it.
func (r *reqReader) add(addr tfaddr.Provider, constraint string) {
	key := addr.String()
	r.addrs[key] = addr
	for _, a := range strings.Split(constraint, ",") {
		if a = strings.TrimSpace(a); a != "" {
			r.atoms[key] = append(r.atoms[key], a)
		}
	}
}

var atomPattern = regexp.MustCompile(`^\s*(~>|>=|<=|!=|=|>|<)?\s*v?(\S+)\s*$`)

// atom is one constraint: an operator and a version.
type atom struct {
	op   string // "" for exactly
	v    *version.Version
	text string // as the lock file writes it
}

// parseAtom reads one constraint and writes it as terraform's lock file
// does: a bound's version in full (">= 3.0.0"), a pessimistic one with
// the precision it was given ("~> 3.6", which it changes), exactly a
// version as the bare version.
func parseAtom(a string) (atom, bool) {
	m := atomPattern.FindStringSubmatch(a)
	if m == nil {
		return atom{}, false
	}
	v, err := version.NewVersion(m[2])
	if err != nil {
		return atom{}, false
	}
	op := m[1]
	if op == "=" {
		op = ""
	}
	text := fullVersion(v)
	if op == "~>" {
		text = m[2]
	}
	if op != "" {
		text = op + " " + text
	}
	return atom{op: op, v: v, text: text}, true
}

func fullVersion(v *version.Version) string {
	s := v.Segments()
	out := fmt.Sprintf("%d.%d.%d", s[0], s[1], s[2])
	if p := v.Prerelease(); p != "" {
		out += "-" + p
	}
	return out
}

// joinAtoms is the constraints string the lock file records: distinct
// constraints ordered by version, ", "-joined, as terraform writes it
// (">= 3.0.0, ~> 3.6, < 4.0.0").
func joinAtoms(texts []string) string {
	var atoms []atom
	seen := map[string]bool{}
	for _, t := range texts {
		a, ok := parseAtom(t)
		if !ok || seen[a.text] {
			continue
		}
		seen[a.text] = true
		atoms = append(atoms, a)
	}
	sort.SliceStable(atoms, func(i, j int) bool {
		if c := atoms[i].v.Compare(atoms[j].v); c != 0 {
			return c < 0
		}
		return atoms[i].op < atoms[j].op
	})
	out := make([]string, len(atoms))
	for i, a := range atoms {
		out[i] = a.text
	}
	return strings.Join(out, ", ")
}
