package yaml

import (
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// resourceDecl is a resource as the program declares it, or a provider from
// the providers block.
type resourceDecl struct {
	key       string // the name in the program
	name      string // the URN name: the "name" field, or key
	where     string // program path: resources.KEY or providers.PKG
	at        pos
	typ       string // as written
	token     string
	pkg       string // the package whose provider manages it (configures it, for a provider)
	component bool
	props     []prop
	// opts is never nil: a resource without options shares noOptions.
	opts *resourceOptions
	// get, when set, reads an existing resource instead of managing one
	// (Pulumi YAML's get): props are then its get.state.
	get *getDecl
	// fromBlock marks a providers-block provider: it takes the stack's
	// PKG:KEY config under its own, and is the default for its package.
	fromBlock bool

	// Filled by buildGraph: resource nodes each property, and the whole
	// resource, depends on.
	propDeps map[string][]int
	allDeps  []int
}

// getDecl is a resource's get: the ID of the existing resource to read.
type getDecl struct {
	at pos
	id *expr
}

// prop is one property of a resource.
type prop struct {
	key string
	at  pos
	val *expr
}

// resourceOptions are a resource's options. Booleans and import may be
// expressions; the rest is static so the graph is known before running.
type resourceOptions struct {
	dependsOn           []*ref
	parent, provider    *ref
	protect             *expr
	retainOnDelete      *expr
	deleteBeforeReplace *expr
	importID            *expr
	ignoreChanges       []string
	replaceOnChanges    []string
	timeouts            engine.CustomTimeouts
	aliases             []engine.Alias
	version             string
	pluginSource        string
	provisioners        []provisionerDecl
}

// noOptions is the options of every resource that sets none. It is shared
// and never written: a program of many resources spends no memory on
// options it does not use.
var noOptions = &resourceOptions{}

var resourceKeys = []string{"type", "name", "properties", "options", "component", "get"}

var optionKeys = []string{"dependsOn", "protect", "ignoreChanges", "deleteBeforeReplace", "replaceOnChanges",
	"retainOnDelete", "customTimeouts", "provider", "version", "pluginSource", "parent", "import", "aliases", "provisioners"}

func (p *Project) parseResources(r *reader, n *yaml.Node) {
	entries, _ := r.mapping(n, "resources", "resources")
	releaseContent(n)
	for i := range entries {
		if d := parseResource(r, entries[i]); d != nil {
			p.resources = append(p.resources, d)
		}
		entries[i].value = nil
	}
}

// releaseContent lets go of a mapping's nodes once its entries are read,
// so that each entry's nodes become garbage as soon as the entry is
// parsed: yaml.v3's tree of a large program is about twice the parsed
// form, and holding the whole tree until the last resource was parsed
// was the peak of parsing (280 MB of heap for 100,000 resources). A
// node with an anchor is kept whole, as an alias elsewhere may read it.
func releaseContent(n *yaml.Node) {
	if n != nil && n.Kind == yaml.MappingNode && n.Anchor == "" {
		n.Content = nil
	}
}

func parseResource(r *reader, en entry) *resourceDecl {
	d := &resourceDecl{key: en.key, name: en.key, where: joinPath("resources", en.key), at: en.at, opts: noOptions}
	fields, ok := r.mappingOf(en.value, d.where, func() string { return fmt.Sprintf("Resource %q", en.key) })
	if !ok {
		return nil
	}
	var typeAt, propsAt *pos
	for _, f := range fields {
		where := joinPath(d.where, f.key)
		switch f.key {
		case "type":
			typeAt = &f.at
			ok = d.parseType(r, f.value, where) && ok
		case "name":
			name, good := r.str(f.value, where, "name")
			if good {
				d.name = name
			}
			ok = ok && good
		case "properties":
			propsAt = &f.at
			d.props, ok = parseProps(r, f.value, where), ok && !r.over
		case "options":
			if d.opts == noOptions {
				d.opts = &resourceOptions{}
			}
			ok = d.opts.parse(r, f.value, where) && ok
		case "component":
			ok = parseBool(r, f.value, where, &d.component) && ok
		case "get":
			ok = d.parseGet(r, f, where) && ok
		default:
			r.errorf(f.at, where, "Unknown field", "A resource has no field %q.%s Its fields are %s.", f.key, suggest(f.key, resourceKeys), quoteList(resourceKeys, 10))
			ok = false
		}
	}
	if typeAt == nil && ok {
		r.errorf(en.at, d.where, "Missing resource type", "Resource %q has no type. Add one, such as \"type: plinth:random:Pet\" or \"type: random_pet\".", en.key)
		return nil
	}
	if d.get != nil {
		ok = d.checkGet(r, propsAt) && ok
	}
	return d.checkName(r, ok)
}

func (d *resourceDecl) checkName(r *reader, ok bool) *resourceDecl {
	if d.key == "" || d.name == "" || strings.Contains(d.name, "::") {
		r.errorf(d.at, d.where, "Invalid resource name", "The resource name %q must be non-empty and must not contain \"::\". Rename it.", d.name)
		return nil
	}
	if !ok {
		return nil
	}
	return d
}

func (d *resourceDecl) parseType(r *reader, n *yaml.Node, where string) bool {
	s, ok := r.str(n, where, "type")
	if !ok {
		return false
	}
	token, pkg, err := program.NormalizeType(s)
	if err != nil {
		r.errorf(at(n), where, "Invalid resource type", "%s.", capitalize(err.Error()))
		return false
	}
	d.typ, d.token, d.pkg = s, token, pkg
	return true
}

func parseProps(r *reader, n *yaml.Node, where string) []prop {
	entries, _ := r.mapping(n, where, "properties")
	props := make([]prop, 0, len(entries))
	for _, en := range entries {
		if e := r.parseExpr(en.value, joinPath(where, en.key), 0); e != nil {
			props = append(props, prop{key: en.key, at: en.at, val: e})
		}
	}
	return props
}

func parseBool(r *reader, n *yaml.Node, where string, out *bool) bool {
	if n = r.resolve(n); n == nil {
		return false
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		r.errorf(at(n), where, "Expected a boolean", "%s must be true or false, not %s.", where, describeNode(n))
		return false
	}
	return n.Decode(out) == nil
}

// parse reads a resource's options mapping.
func (o *resourceOptions) parse(r *reader, n *yaml.Node, where string) bool {
	entries, ok := r.mapping(n, where, "options")
	for _, en := range entries {
		ok = o.parseOption(r, en, joinPath(where, en.key)) && ok
	}
	return ok
}

func (o *resourceOptions) parseOption(r *reader, en entry, where string) bool {
	var ok bool
	switch en.key {
	case "dependsOn":
		o.dependsOn, ok = r.resourceRefs(en.value, where)
	case "parent":
		o.parent = r.resourceRef(en.value, where, "parent")
		ok = o.parent != nil
	case "provider":
		o.provider = r.resourceRef(en.value, where, "provider")
		ok = o.provider != nil
	case "protect":
		o.protect, ok = r.optionExpr(en.value, where, resource.BoolKind)
	case "retainOnDelete":
		o.retainOnDelete, ok = r.optionExpr(en.value, where, resource.BoolKind)
	case "deleteBeforeReplace":
		o.deleteBeforeReplace, ok = r.optionExpr(en.value, where, resource.BoolKind)
	case "import":
		o.importID, ok = r.optionExpr(en.value, where, resource.StringKind)
	case "ignoreChanges":
		o.ignoreChanges, ok = r.paths(en.value, where)
	case "replaceOnChanges":
		o.replaceOnChanges, ok = r.paths(en.value, where)
	case "customTimeouts":
		ok = r.timeouts(en.value, where, &o.timeouts)
	case "aliases":
		o.aliases, ok = r.aliases(en.value, where)
	case "version":
		o.version, ok = r.str(en.value, where, "version")
	case "pluginSource":
		o.pluginSource, ok = r.str(en.value, where, "pluginSource")
	case "provisioners":
		o.provisioners, ok = r.provisioners(en.value, joinPath(where, "provisioners"))
	default:
		r.errorf(en.at, where, "Unknown option",
			"There is no resource option %q.%s The options are %s.", en.key, suggest(en.key, optionKeys), quoteList(optionKeys, 20))
	}
	return ok
}

// optionExpr reads an option that may be an expression; a literal must
// have the given kind.
func (r *reader) optionExpr(n *yaml.Node, where string, kind resource.Kind) (*expr, bool) {
	e := r.parseExpr(n, where, 0)
	if e == nil {
		return nil, false
	}
	if e.kind == exprLiteral && e.lit.Kind() != kind {
		r.errorf(e.at, where, "Invalid option", "%s must be a %s, not %s.", where, kind, describeValue(e.lit))
		return nil, false
	}
	return e, true
}

// resourceRef reads ${name}: a whole reference to a resource, no path.
func (r *reader) resourceRef(n *yaml.Node, where, what string) *ref {
	s, ok := r.str(n, where, what)
	if !ok {
		return nil
	}
	parts, err := parseInterpolation(s)
	if err != nil || len(parts) != 1 || parts[0].ref == nil || parts[0].ref.path != nil {
		r.errorf(at(n), where, "Expected a resource reference",
			"%s must name a resource as \"${name}\", not %q.", what, s)
		return nil
	}
	rf := parts[0].ref
	rf.at, rf.where = at(n), where
	return rf
}

// resourceRefs reads dependsOn: a list of ${name}, or one.
func (r *reader) resourceRefs(n *yaml.Node, where string) ([]*ref, bool) {
	if rn := r.resolve(n); rn != nil && rn.Kind == yaml.ScalarNode {
		rf := r.resourceRef(rn, where, "dependsOn")
		return []*ref{rf}, rf != nil
	}
	items, ok := r.sequence(n, where, "dependsOn")
	refs := make([]*ref, 0, len(items))
	for i, it := range items {
		rf := r.resourceRef(it, fmt.Sprintf("%s[%d]", where, i), "Each item of dependsOn")
		ok = ok && rf != nil
		refs = append(refs, rf)
	}
	return refs, ok
}

// paths reads ignoreChanges or replaceOnChanges: property paths.
func (r *reader) paths(n *yaml.Node, where string) ([]string, bool) {
	items, ok := r.sequence(n, where, where)
	out := make([]string, 0, len(items))
	for i, it := range items {
		w := fmt.Sprintf("%s[%d]", where, i)
		s, good := r.str(it, w, "Each property path")
		if !good {
			ok = false
			continue
		}
		if _, err := resource.ParsePath(s); err != nil {
			r.errorf(at(it), w, "Invalid property path", "%s. Write a path such as tags or tags[\"name\"] or rules[0].port.", capitalize(err.Error()))
			ok = false
			continue
		}
		out = append(out, s)
	}
	return out, ok
}

// timeouts reads customTimeouts: {create, update, delete} as durations.
func (r *reader) timeouts(n *yaml.Node, where string, t *engine.CustomTimeouts) bool {
	entries, ok := r.mapping(n, where, "customTimeouts")
	for _, en := range entries {
		w := joinPath(where, en.key)
		var dst *time.Duration
		switch en.key {
		case "create":
			dst = &t.Create
		case "update":
			dst = &t.Update
		case "delete":
			dst = &t.Delete
		default:
			r.errorf(en.at, w, "Unknown timeout", "customTimeouts has no field %q; its fields are \"create\", \"update\" and \"delete\".", en.key)
			ok = false
			continue
		}
		s, good := r.str(en.value, w, "A timeout")
		d, err := time.ParseDuration(s)
		if good && (err != nil || d < 0) {
			r.errorf(at(en.value), w, "Invalid timeout", "%q is not a duration. Write a duration such as \"30s\", \"5m\" or \"1h30m\".", s)
		}
		ok = ok && good && err == nil && d >= 0
		*dst = d
	}
	return ok
}

var providerKeys = []string{"source", "version", "config"}

// parseProviders reads the providers block: each entry becomes a provider
// resource, the default for its package.
func (p *Project) parseProviders(r *reader, n *yaml.Node) {
	entries, _ := r.mapping(n, "providers", "providers")
	for _, en := range entries {
		d := &resourceDecl{key: en.key, name: en.key, where: joinPath("providers", en.key), at: en.at, fromBlock: true, opts: &resourceOptions{},
			typ: program.ProviderTypePrefix + en.key, token: program.ProviderTypePrefix + en.key, pkg: en.key}
		if !program.IsPackageName(en.key) {
			r.errorf(en.at, d.where, "Invalid provider package", "%q is not a package name. Name the package the provider serves, such as random.", en.key)
			continue
		}
		if d.parseProvider(r, en.value) {
			p.resources = append(p.resources, d)
		}
	}
}

func (d *resourceDecl) parseProvider(r *reader, n *yaml.Node) bool {
	fields, ok := r.mapping(n, d.where, fmt.Sprintf("Provider %q", d.key))
	for _, f := range fields {
		where := joinPath(d.where, f.key)
		var good bool
		switch f.key {
		case "source":
			d.opts.pluginSource, good = r.str(f.value, where, "source")
		case "version":
			d.opts.version, good = r.str(f.value, where, "version")
		case "config":
			d.props, good = parseProps(r, f.value, where), !r.over
		default:
			r.errorf(f.at, where, "Unknown field", "A provider has no field %q.%s Its fields are %s.", f.key, suggest(f.key, providerKeys), quoteList(providerKeys, 10))
		}
		ok = ok && good
	}
	return ok
}

var aliasKeys = []string{"name", "type", "parentUrn", "noParent", "project", "stack"}

// aliases reads the aliases option: a list whose items are an old name, a
// full old URN, or a mapping of the parts of the old URN that differ.
func (r *reader) aliases(n *yaml.Node, where string) ([]engine.Alias, bool) {
	items, ok := r.sequence(n, where, where)
	out := make([]engine.Alias, 0, len(items))
	for i, it := range items {
		w := fmt.Sprintf("%s[%d]", where, i)
		var a engine.Alias
		good := true
		if rn := r.resolve(it); rn != nil && rn.Kind == yaml.MappingNode {
			a, good = r.aliasSpec(rn, w)
		} else if s, isStr := r.str(it, w, "Each alias"); !isStr {
			good = false
		} else if strings.HasPrefix(s, "urn:") {
			urn, err := resource.ParseURN(s)
			if err != nil {
				r.errorf(at(it), w, "Invalid alias", "%s. Give the resource's old name, or its full old URN as the state records it (urn:pulumi:STACK::PROJECT::TYPE::NAME).", capitalize(err.Error()))
				good = false
			}
			a.URN = urn
		} else {
			a.Name = s
		}
		ok = ok && good
		out = append(out, a)
	}
	return out, ok
}

// aliasSpec reads one alias given as a mapping.
func (r *reader) aliasSpec(n *yaml.Node, where string) (engine.Alias, bool) {
	var a engine.Alias
	entries, ok := r.mapping(n, where, "an alias")
	for _, en := range entries {
		w := joinPath(where, en.key)
		var text string
		good := true
		if en.key != "noParent" {
			text, good = r.str(en.value, w, en.key)
		}
		switch en.key {
		case "name":
			a.Name = text
		case "type":
			a.Type = text
		case "project":
			a.Project = text
		case "stack":
			a.Stack = text
		case "parentUrn":
			urn, err := resource.ParseURN(text)
			if good && err != nil {
				r.errorf(en.at, w, "Invalid alias", "parentUrn: %v.", err)
				good = false
			}
			a.Parent = urn
		case "noParent":
			v := r.resolve(en.value)
			good = v != nil && v.Kind == yaml.ScalarNode && v.ShortTag() == "!!bool"
			if !good {
				r.errorf(en.at, w, "Invalid alias", "noParent must be true or false.")
			}
			a.NoParent = good && v.Value == "true"
		default:
			r.errorf(en.at, w, "Unknown alias field", "An alias has no field %q.%s Its fields are %s.", en.key, suggest(en.key, aliasKeys), quoteList(aliasKeys, 20))
			good = false
		}
		ok = ok && good
	}
	return a, ok
}
