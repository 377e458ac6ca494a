package tfstate

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/plinth-iac/plinth/internal/provider/tfplugin/tfprivate"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// ExportOptions holds what a Terraform state records and plinth does not.
type ExportOptions struct {
	// Lineage identifies the state's history; "" makes a new one.
	Lineage string
	// Serial is the state's serial number; 0 means 1.
	Serial uint64
	// TerraformVersion is the Terraform the state claims to be written by;
	// "" means 1.11.4.
	TerraformVersion string
	// OutputTypes are the types a previous state gave its outputs, by
	// name: an output whose value still has its type keeps it (a list or
	// a map cannot be told from a tuple or an object by its value). They
	// win over the types the snapshot records (state.Snapshot.OutputTypes,
	// which are used next): terraform wrote them, and plinth's evaluation
	// does not type every value as terraform does (terraform_data's
	// output, a set attribute).
	OutputTypes map[string]json.RawMessage
	// DynamicTypes are the types a previous state gave the dynamic
	// attributes of its instances (DynamicTypes), by instance address
	// and attribute: a value that still has its type keeps it.
	DynamicTypes map[string]map[string]json.RawMessage
}

// FromSnapshot writes a snapshot as a Terraform state. Every custom
// resource must be managed by a Terraform provider and named by a
// Terraform address, or by a name that is an identifier (it becomes
// TYPE.NAME); components are left out, with a note.
func FromSnapshot(snap *state.Snapshot, opts ExportOptions) (*State, []string, error) {
	st := &State{Version: FormatVersion, TerraformVersion: opts.TerraformVersion, Serial: opts.Serial,
		Lineage: opts.Lineage, Outputs: map[string]*Output{}, Resources: []*Resource{}}
	if st.TerraformVersion == "" {
		st.TerraformVersion = "1.11.4"
	}
	if st.Serial == 0 {
		st.Serial = 1
	}
	if st.Lineage == "" {
		st.Lineage = newID()
	}
	e := &exporter{snap: snap, dynTypes: opts.DynamicTypes, byKey: map[string]*Resource{}, addrOf: map[resource.URN]string{}}
	if err := e.resources(); err != nil {
		return nil, nil, err
	}
	st.Resources = e.sorted()
	for name, v := range snap.Outputs {
		o, err := output(v, opts.OutputTypes[name], snap.OutputTypes[name])
		if err != nil {
			return nil, nil, fmt.Errorf("stack output %s: %w", name, err)
		}
		st.Outputs[name] = o
	}
	return st, e.notes, nil
}

type exporter struct {
	snap     *state.Snapshot
	dynTypes map[string]map[string]json.RawMessage
	byKey    map[string]*Resource
	addrOf   map[resource.URN]string // URN -> resource address (no key)
	notes    []string
}

// instanceAddr is a parsed resource instance address.
type instanceAddr struct {
	module, typ, name, key string
}

func (a instanceAddr) resource() string {
	s := a.typ + "." + a.name
	if a.module != "" {
		s = a.module + "." + s
	}
	return s
}

// resources adds every custom, non-provider resource.
func (e *exporter) resources() error {
	for _, r := range e.snap.Resources {
		if state.IsProviderType(r.Type) {
			continue
		}
		if !r.Custom {
			e.notes = append(e.notes, fmt.Sprintf("component %s is left out: Terraform has no components", r.URN))
			continue
		}
		addr, err := addressOf(r)
		if err != nil {
			return err
		}
		e.addrOf[r.URN] = addr.resource()
		if g, ok := state.GroupOf(r.URN); ok {
			e.addrOf[g] = addr.resource()
		}
		if err := e.add(r, addr); err != nil {
			return fmt.Errorf("resource %s: %w", r.URN, err)
		}
	}
	return nil
}

// addressOf finds the Terraform address of a resource from its URN name
// and type.
func addressOf(r *state.Resource) (instanceAddr, error) {
	typ, ok := terraformType(r.Type)
	if !ok {
		return instanceAddr{}, fmt.Errorf("resource %s has type %s, which is not managed by a Terraform provider; terraform cannot manage it", r.URN, r.Type)
	}
	name := r.URN.Name()
	a, err := parseInstanceAddr(name)
	if err == nil && a.typ == typ {
		return a, nil
	}
	if identRE.MatchString(name) {
		return instanceAddr{typ: typ, name: name}, nil
	}
	return instanceAddr{}, fmt.Errorf("resource %s is named %q, which is neither a Terraform address of a %s nor an identifier; rename it with `plinth state mv` first", r.URN, name, typ)
}

// terraformType is the Terraform type of a type token pkg:index:pkg_type.
func terraformType(token string) (string, bool) {
	parts := strings.Split(token, ":")
	if len(parts) != 3 || parts[1] != "index" || !strings.HasPrefix(parts[2], parts[0]+"_") || !identRE.MatchString(parts[2]) {
		return "", false
	}
	return parts[2], true
}

// parseInstanceAddr parses [module.a[k].]type.name[key].
func parseInstanceAddr(s string) (instanceAddr, error) {
	var a instanceAddr
	rest := s
	for strings.HasPrefix(rest, "module.") {
		loc := moduleRE.FindStringIndex(rest)
		if loc == nil || len(rest) == loc[1] || rest[loc[1]] != '.' {
			return a, fmt.Errorf("%q is not a resource address", s)
		}
		if a.module != "" {
			a.module += "."
		}
		a.module += rest[:loc[1]]
		rest = rest[loc[1]+1:]
	}
	if i := strings.IndexByte(rest, '['); i >= 0 {
		a.key, rest = rest[i:], rest[:i]
		if _, err := keyJSON(a.key); err != nil {
			return a, err
		}
	}
	typ, name, ok := strings.Cut(rest, ".")
	if !ok || !identRE.MatchString(typ) || !identRE.MatchString(name) {
		return a, fmt.Errorf("%q is not a resource address", s)
	}
	a.typ, a.name = typ, name
	return a, nil
}

// keyJSON turns [0] or ["a"] into an index_key.
func keyJSON(key string) (json.RawMessage, error) {
	inner := strings.TrimSuffix(strings.TrimPrefix(key, "["), "]")
	var v any
	if len(inner)+2 != len(key) || json.Unmarshal([]byte(inner), &v) != nil {
		return nil, fmt.Errorf("instance key %s is neither [NUMBER] nor [\"STRING\"]", key)
	}
	switch v.(type) {
	case float64, string:
		return json.RawMessage(inner), nil
	}
	return nil, fmt.Errorf("instance key %s is neither [NUMBER] nor [\"STRING\"]", key)
}

// add writes one resource as an instance of its Terraform resource.
func (e *exporter) add(r *state.Resource, a instanceAddr) error {
	pa, err := e.providerOf(r)
	if err != nil {
		return err
	}
	k := a.resource()
	tr := e.byKey[k]
	if tr == nil {
		tr = &Resource{Module: a.module, Mode: "managed", Type: a.typ, Name: a.name, Provider: pa.String()}
		e.byKey[k] = tr
	} else if tr.Provider != pa.String() {
		return fmt.Errorf("its provider %s differs from %s, which other instances of %s use", pa, tr.Provider, k)
	}
	in, err := instance(r, a, e.dynTypes[k+a.key])
	if err != nil {
		return err
	}
	in.Dependencies = e.dependencies(r)
	tr.Instances = append(tr.Instances, in)
	switch {
	case strings.HasPrefix(a.key, `["`):
		tr.Each = "map"
	case a.key != "":
		tr.Each = "list"
	}
	return nil
}

// instance writes the object itself; dynTypes are the types a previous
// state gave its dynamic attributes.
func instance(r *state.Resource, a instanceAddr, dynTypes map[string]json.RawMessage) (*Instance, error) {
	pd, err := tfprivate.Decode(r.Private)
	if err != nil {
		return nil, fmt.Errorf("its private data: %w", err)
	}
	attrs := r.Outputs.Copy()
	if attrs == nil {
		attrs = resource.Object{}
	}
	g, err := toGo(resource.NewObject(attrs), nil)
	if err != nil {
		return nil, err
	}
	wrapDynamic(a.typ, g.(map[string]any), attrs, dynTypes, r.InputTypes)
	raw, err := marshal(g)
	if err != nil {
		return nil, err
	}
	sens := make([]any, 0)
	for _, p := range secretPaths(sensitiveSource(a.typ, attrs, r.Inputs)) {
		for _, steps := range pathForms(p) {
			sens = append(sens, steps)
		}
	}
	sensRaw, _ := json.Marshal(sens)
	in := &Instance{SchemaVersion: pd.SchemaVersion, Attributes: raw, SensitiveAttributes: sensRaw,
		CreateBeforeDestroy: !r.DeleteBeforeReplace}
	if a.key != "" {
		in.IndexKey, _ = keyJSON(a.key)
	}
	if len(pd.Provider) > 0 {
		in.Private = base64.StdEncoding.EncodeToString(pd.Provider)
	}
	if r.Tainted {
		in.Status = "tainted"
	}
	if r.Delete {
		sum := sha256.Sum256([]byte(r.ID))
		in.Deposed = hex.EncodeToString(sum[:4])
	}
	return in, nil
}

// dependencies are the addresses of the resources r depends on.
func (e *exporter) dependencies(r *state.Resource) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range append(slices.Clone(r.Dependencies), r.DependencyGroups...) {
		if a, ok := e.addrOf[d]; ok && !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

// The built-in provider terraform (terraform_data, terraform_remote_state):
// Terraform names it by a source of its own, never the registry's.
const (
	builtinType   = "terraform"
	builtinSource = "terraform.io/builtin/terraform"
)

// providerOf finds the provider configuration address of a resource.
func (e *exporter) providerOf(r *state.Resource) (providerAddr, error) {
	urn, id, err := state.ParseProviderRef(r.Provider)
	if err != nil {
		return providerAddr{}, err
	}
	var p *state.Resource
	for _, c := range e.snap.Resources {
		if c.URN == urn && c.ID == id {
			p = c
			break
		}
	}
	if p == nil {
		return providerAddr{}, fmt.Errorf("its provider %s is not in the state", r.Provider)
	}
	pkg := strings.TrimPrefix(p.Type, state.ProviderTypePrefix)
	source := "registry.terraform.io/hashicorp/" + pkg
	if s := p.Inputs["source"].SecretElement(); s.Kind() == resource.StringKind && s.Str() != "" {
		source = s.Str()
		if strings.Count(source, "/") == 1 {
			source = "registry.terraform.io/" + source
		}
	}
	if pkg == builtinType {
		source = builtinSource // plinth's in-process stand-in for terraform's built-in provider
	}
	pa := providerAddr{Source: source}
	name := urn.Name()
	if i := strings.LastIndex(name, "provider."); i >= 0 {
		pa.Module = strings.TrimSuffix(name[:i], ".")
		if _, alias, ok := strings.Cut(name[i+len("provider."):], "."); ok {
			pa.Alias = alias
		}
	}
	return pa, nil
}

// sorted returns the resources in Terraform's order (module, mode, type,
// name), their instances by key, current before deposed; dependencies are
// filled in from the recorded ones.
func (e *exporter) sorted() []*Resource {
	out := make([]*Resource, 0, len(e.byKey))
	for _, r := range e.byKey {
		sort.SliceStable(r.Instances, func(i, j int) bool {
			return string(r.Instances[i].IndexKey) < string(r.Instances[j].IndexKey)
		})
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Module != b.Module {
			return a.Module < b.Module
		}
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		return a.Name < b.Name
	})
	return out
}

// output writes a stack output as a root output, of the first of types
// its value conforms to (see outputType).
func output(v resource.Value, types ...json.RawMessage) (*Output, error) {
	g, err := toGo(v, nil)
	if err != nil {
		return nil, err
	}
	raw, err := marshal(g)
	if err != nil {
		return nil, err
	}
	return &Output{Value: raw, Type: outputType(v, types...), Sensitive: v.ContainsSecrets()}, nil
}

func marshal(g any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(g); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Marshal writes a state as Terraform does: indented JSON with a final
// newline.
func Marshal(st *State) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(st); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
