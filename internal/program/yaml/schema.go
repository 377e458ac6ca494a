package yaml

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// schemaChecker checks a program against its providers' schemas before
// anything registers: resource types, property names and literal types,
// required properties, function tokens and references to outputs.
type schemaChecker struct {
	r      *run
	d      *diags
	cache  map[[2]string]*schema.Schema
	warned map[string]bool
}

func (r *run) checkSchemas() error {
	c := &schemaChecker{r: r, d: &diags{file: r.p.file}, cache: map[[2]string]*schema.Schema{}, warned: map[string]bool{}}
	for _, n := range r.p.nodes {
		if n.res != nil && !n.res.component {
			c.resource(n.res)
		}
		n.exprs(func(e *expr) {
			e.refs(c.reference)
			e.invokes(c.invoke)
		})
	}
	return asError(c.d.list)
}

// schema returns the package's schema, or nil when there is none to check
// against (the provider could not say; that is a warning, not an error:
// registration reports a provider that cannot load).
func (c *schemaChecker) schema(pkg, version string) *schema.Schema {
	key := [2]string{pkg, version}
	if s, ok := c.cache[key]; ok {
		return s
	}
	s, err := c.r.mon.Schema(c.r.ctx, pkg, version)
	if err != nil && !c.warned[pkg] {
		c.warned[pkg] = true
		warn(c.r.opts, program.Diagnostic{Severity: program.Warning, Summary: "Provider schema unavailable", File: c.r.p.file,
			Detail: fmt.Sprintf("Could not load the schema of package %q to check the program against it: %s. The program runs without those checks.", pkg, strings.TrimRight(err.Error(), ". "))})
	}
	if err != nil {
		s = nil
	}
	c.cache[key] = s
	return s
}

// version is the provider version a resource's package resolves with: its
// provider's, if it has an explicit or providers-block one.
func (c *schemaChecker) version(d *resourceDecl) string {
	p := c.r.p
	if rf := d.opts.provider; rf != nil {
		return p.nodes[p.index[rf.root]].res.opts.version
	}
	if j, ok := p.defaultProviders[d.pkg]; ok && !program.IsProviderType(d.token) {
		return p.nodes[j].res.opts.version
	}
	return d.opts.version
}

// resourceSchema returns the schema of a resource's type, if its package
// has a schema that lists resources.
func (c *schemaChecker) resourceSchema(d *resourceDecl) (*schema.ResourceSchema, *schema.Schema) {
	s := c.schema(d.pkg, c.version(d))
	if s == nil || len(s.Resources) == 0 {
		return nil, s
	}
	rs, ok := s.Resources[d.token]
	if !ok {
		return nil, s
	}
	return &rs, s
}

func (c *schemaChecker) resource(d *resourceDecl) {
	if program.IsProviderType(d.token) {
		if s := c.schema(d.pkg, d.opts.version); s != nil && len(s.Config) > 0 && !d.fromBlock {
			c.props(d, s.Config, "provider "+d.pkg, false)
		}
		return
	}
	rs, s := c.resourceSchema(d)
	if rs == nil {
		if s != nil && len(s.Resources) > 0 {
			types := s.ResourceTypes()
			c.d.errorf(d.at, joinPath(d.where, "type"), "Unknown resource type",
				"Package %q has no resource type %q.%s Its types are %s.", d.pkg, d.token, suggest(d.token, types), quoteList(types, 20))
		}
		return
	}
	if d.get != nil {
		c.props(d, stateProps(rs), d.token, false)
		return
	}
	c.props(d, rs.Inputs, d.token, d.opts.importID == nil)
}

// stateProps are the properties a get's state may set: a resource's
// inputs and outputs.
func stateProps(rs *schema.ResourceSchema) map[string]schema.Property {
	out := make(map[string]schema.Property, len(rs.Inputs)+len(rs.Outputs))
	for k, p := range rs.Outputs {
		out[k] = p
	}
	for k, p := range rs.Inputs {
		out[k] = p
	}
	return out
}

// props checks properties by name and literal type, and that the required
// ones are set.
func (c *schemaChecker) props(d *resourceDecl, schema map[string]schema.Property, what string, required bool) {
	for _, pr := range d.props {
		sp, ok := schema[pr.key]
		if !ok {
			c.unknownProp(d, pr, schema, what)
			continue
		}
		c.value(pr.val, sp.Type, what)
	}
	if !required || !missesRequired(d.props, schema) {
		return // a large program's many resources sort no names
	}
	for _, name := range propNames(schema) {
		if sp := schema[name]; sp.Required && !hasProp(d.props, name) {
			c.d.errorf(d.at, d.where, "Missing required property", "%s requires the property %q (%s), which %s does not set. Add it under properties.", what, name, typeName(sp.Type), d.where)
		}
	}
}

// unknownProp reports a property the schema does not have.
func (c *schemaChecker) unknownProp(d *resourceDecl, pr prop, schema map[string]schema.Property, what string) {
	where := joinPath(joinPath(d.where, "properties"), pr.key)
	kind, kinds := "input property", "inputs"
	if d.get != nil {
		where = joinPath(joinPath(joinPath(d.where, "get"), "state"), pr.key)
		kind, kinds = "property", "properties"
	}
	names := propNames(schema)
	c.d.errorf(pr.at, where, "Unknown property", "%s has no %s %q.%s Its %s are %s.", what, kind, pr.key, suggest(pr.key, names), kinds, quoteList(names, 30))
}

// missesRequired reports whether props lacks a property schema requires.
func missesRequired(props []prop, schema map[string]schema.Property) bool {
	for name, sp := range schema {
		if sp.Required && !hasProp(props, name) {
			return true
		}
	}
	return false
}

func hasProp(props []prop, key string) bool {
	for _, pr := range props {
		if pr.key == key {
			return true
		}
	}
	return false
}

func propNames(m map[string]schema.Property) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// value checks what can be known of an expression's type before running:
// literals, lists, mappings, interpolated strings and asset functions.
func (c *schemaChecker) value(e *expr, t schema.Type, what string) {
	got, ok := staticKind(e)
	if !ok || t.Kind == schema.TypeAny || t.Kind == "" {
		if e.kind == exprCall && e.fn() == "secret" {
			c.value(e.arg(), t, what)
		}
		return
	}
	if !fits(e, got, t) {
		c.d.errorf(e.at, e.where, "Wrong type", "%s is %s, but %s expects %s here.", e.where, got, what, typeName(t))
		return
	}
	switch {
	case e.kind == exprList && t.Elem != nil:
		for _, el := range e.elems() {
			c.value(el, *t.Elem, what)
		}
	case e.kind == exprObject && t.Kind == schema.TypeMap && t.Elem != nil:
		for _, v := range e.vals() {
			c.value(v, *t.Elem, what)
		}
	case e.kind == exprObject && t.Properties != nil:
		c.object(e, t.Properties, what)
	}
}

func (c *schemaChecker) object(e *expr, props map[string]schema.Property, what string) {
	for i, k := range e.keys() {
		sp, ok := props[k]
		if !ok {
			names := propNames(props)
			c.d.errorf(e.vals()[i].at, e.vals()[i].where, "Unknown property", "%s has no property %q here.%s The properties are %s.", what, k, suggest(k, names), quoteList(names, 30))
			continue
		}
		c.value(e.vals()[i], sp.Type, what)
	}
}

// staticKind describes the type an expression is sure to have, or false.
func staticKind(e *expr) (string, bool) {
	switch e.kind {
	case exprLiteral:
		return describeValue(e.lit), true
	case exprInterp:
		return "a string", true
	case exprList:
		return "a list", true
	case exprObject:
		return "a mapping", true
	case exprCall:
		switch e.fn() {
		case "fileAsset", "stringAsset", "remoteAsset":
			return "an asset", true
		case "fileArchive", "remoteArchive", "assetArchive":
			return "an archive", true
		case "join", "toJSON", "readFile", "toBase64", "fromBase64":
			return "a string", true
		}
	}
	return "", false
}

// fits reports whether a value described by got suits type t. Scalars
// convert where providers convert them: a number or boolean into a string,
// a numeric string into a number.
func fits(e *expr, got string, t schema.Type) bool {
	if e.kind == exprLiteral && e.lit.IsNull() {
		return true
	}
	switch t.Kind {
	case schema.TypeString:
		return got == "a string" || got == "a number" || got == "a bool"
	case schema.TypeInteger:
		return (e.kind == exprLiteral && isInteger(e.lit)) || numericText(e, true)
	case schema.TypeNumber:
		return got == "a number" || numericText(e, false)
	case schema.TypeBool:
		return got == "a bool" || (e.kind == exprLiteral && (e.lit.Str() == "true" || e.lit.Str() == "false"))
	case schema.TypeArray:
		return got == "a list"
	case schema.TypeMap, schema.TypeObject:
		return got == "a mapping"
	case schema.TypeAsset:
		return got == "an asset"
	case schema.TypeArchive:
		return got == "an archive"
	}
	return true
}

// numericText reports whether an expression is a string literal holding a
// number (an integer when integer is set), or an interpolation, whose text
// is not known yet.
func numericText(e *expr, integer bool) bool {
	if e.kind == exprInterp {
		return true
	}
	if e.kind != exprLiteral || e.lit.Kind() != resource.StringKind {
		return false
	}
	if integer {
		_, err := strconv.ParseInt(e.lit.Str(), 10, 64)
		return err == nil
	}
	_, err := strconv.ParseFloat(e.lit.Str(), 64)
	return err == nil
}

func typeName(t schema.Type) string {
	switch t.Kind {
	case schema.TypeArray, schema.TypeMap:
		if t.Elem != nil {
			return fmt.Sprintf("%s %s of %s", article(string(t.Kind)), t.Kind, typeName(*t.Elem))
		}
	case "":
		return "any value"
	}
	return article(string(t.Kind)) + " " + string(t.Kind)
}

// reference checks ${res.prop} against the resource type's properties.
func (c *schemaChecker) reference(rf *ref) {
	j, ok := c.r.p.index[rf.root]
	if !ok || len(rf.path) == 0 {
		return
	}
	d := c.r.p.nodes[j].res
	if d == nil || d.component || program.IsProviderType(d.token) {
		return
	}
	name, ok := rf.path[0].(string)
	if !ok || name == "id" || name == "urn" {
		return
	}
	rs, _ := c.resourceSchema(d)
	if rs == nil || len(rs.Outputs)+len(rs.Inputs) == 0 {
		return
	}
	if _, ok := rs.Outputs[name]; ok {
		return
	}
	if _, ok := rs.Inputs[name]; ok {
		return
	}
	names := propNames(rs.Outputs)
	c.d.errorf(rf.at, rf.where, "Unknown property", "%s reads %q, but %s has no property %q.%s Its properties are %s.",
		rf.text, name, d.token, name, suggest(name, append(names, "id", "urn")), quoteList(names, 30))
}

// invoke checks a function token against the package's functions.
func (c *schemaChecker) invoke(spec *invokeSpec) {
	version := spec.version
	if spec.provider != nil {
		version = c.r.p.nodes[c.r.p.index[spec.provider.root]].res.opts.version
	}
	s := c.schema(spec.pkg, version)
	if s == nil || len(s.Functions) == 0 {
		return
	}
	if _, ok := s.Functions[spec.token]; ok {
		return
	}
	names := make([]string, 0, len(s.Functions))
	for k := range s.Functions {
		names = append(names, k)
	}
	sort.Strings(names)
	c.d.errorf(spec.at, spec.where, "Unknown function", "Package %q has no function %q.%s Its functions are %s.",
		spec.pkg, spec.token, suggest(spec.token, names), quoteList(names, 20))
}
