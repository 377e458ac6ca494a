package hcl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/schema"
)

// schemaCheck checks every resource and data block against its
// provider's schema before anything registers: the type exists, each
// argument and nested block is one the type has, literal values have
// the attribute's type, and required arguments are set. Each problem is
// reported at the file:line:col of the argument, as terraform does.
// A provider whose schema cannot be loaded is not checked here: its
// registration reports it. The arguments' schemas are kept in r.argSchemas
// for checkValues, which checks the values once they are evaluated.
func (r *run) schemaCheck() bool {
	cache := map[string]*schema.Schema{}
	r.argSchemas = map[*resourceConfig]map[string]schema.Property{}
	r.resultSchemas = map[*resourceConfig]map[string]schema.Property{}
	var ds hcl.Diagnostics
	var walk func(m *Module)
	walk = func(m *Module) {
		for _, rc := range m.resources {
			inputs, rds := r.checkResource(m, rc, cache)
			ds = append(ds, rds...)
			if inputs != nil {
				r.argSchemas[rc] = inputs
			}
		}
		for _, c := range m.calls {
			if c.module != nil {
				walk(c.module)
			}
		}
	}
	walk(r.c.root)
	return r.report(ds)
}

// providerSchema loads (once) the schema of the provider a resource type
// belongs to; nil when there is none to check against.
func (r *run) providerSchema(m *Module, pkg string, cache map[string]*schema.Schema) *schema.Schema {
	if s, ok := cache[pkg]; ok {
		return s
	}
	// The configuration's combined constraint, so the schema is the one of
	// the plugin its resources will use.
	_, version := r.required(m, pkg)
	s, err := r.mon.Schema(r.ctx, pkg, version)
	if err != nil {
		s = nil
	}
	cache[pkg] = s
	return s
}

// checkResource checks one resource or data block against its
// provider's schema and returns the schema of its arguments (nil when
// there is none to check against).
func (r *run) checkResource(m *Module, rc *resourceConfig, cache map[string]*schema.Schema) (map[string]schema.Property, hcl.Diagnostics) {
	if rc.mode == ephemeral {
		return nil, nil
	}
	token, pkg, err := typeToken(rc.typ)
	if err != nil {
		return nil, nil
	}
	s := r.providerSchema(m, pkg, cache)
	if s == nil {
		return nil, nil
	}
	inputs, d := typeInputs(s, rc, token, pkg)
	if d != nil {
		return nil, hcl.Diagnostics{d}
	}
	results := s.Resources[token].Outputs
	if rc.mode == dataMode {
		results = s.Functions[token].Outputs
	}
	r.resultSchemas[rc] = results
	if r.opts.TypeSchema != nil {
		r.opts.TypeSchema(program.TypeSchema{Type: token, Data: rc.mode == dataMode, Properties: results})
	}
	if inputs == nil {
		return nil, nil
	}
	if body, ok := rc.body.(*hclsyntax.Body); ok {
		return inputs, checkBody(body, inputs, results, true)
	}
	return inputs, checkJSONBody(rc.body, inputs, results)
}

// typeInputs finds a resource or data source type in its provider's
// schema: the schema of its arguments, or a diagnostic when the
// provider has no such type.
func typeInputs(s *schema.Schema, rc *resourceConfig, token, pkg string) (map[string]schema.Property, *hcl.Diagnostic) {
	var inputs map[string]schema.Property
	kind, known := "resource", map[string]bool{}
	if rc.mode == managed {
		rs, ok := s.Resources[token]
		inputs = rs.Inputs
		for t := range s.Resources {
			known[strings.TrimPrefix(t, pkg+":index:")] = ok
		}
		if !ok && len(s.Resources) > 0 {
			return nil, unknownType(rc, kind, pkg, known)
		}
	} else {
		kind = "data source"
		fs, ok := s.Functions[token]
		inputs = fs.Inputs
		for t := range s.Functions { // data sources, not provider functions
			if n := strings.TrimPrefix(t, pkg+":index:"); strings.HasPrefix(n, pkg+"_") || n == pkg {
				known[n] = ok
			}
		}
		if !ok && len(known) > 0 {
			return nil, unknownType(rc, kind, pkg, known)
		}
	}
	return inputs, nil
}

func unknownType(rc *resourceConfig, kind, pkg string, known map[string]bool) *hcl.Diagnostic {
	names := make([]string, 0, len(known))
	for n := range known {
		names = append(names, n)
	}
	sort.Strings(names)
	hint := ""
	if best, d := closest(rc.typ, names); d <= 3 {
		hint = fmt.Sprintf(" Did you mean %q?", best)
	}
	summary := "Invalid resource type"
	if kind == "data source" {
		summary = "Invalid data source"
	}
	return errorAt(rc.rng, summary, "The provider hashicorp/%s does not support %s type %q.%s", pkg, kind, rc.typ, hint)
}

// closest is the name nearest to s by edit distance.
func closest(s string, names []string) (string, int) {
	best, bd := "", 1<<30
	for _, n := range names {
		if d := program.EditDistance(s, n); d < bd {
			best, bd = n, d
		}
	}
	return best, bd
}

// checkBody checks one body's arguments and blocks against properties;
// top is the resource's own body, where meta-arguments live. results are
// the type's result attributes: an argument naming one of them that is
// not an input is a read-only attribute.
func checkBody(body *hclsyntax.Body, props, results map[string]schema.Property, top bool) hcl.Diagnostics {
	var ds hcl.Diagnostics
	set := map[string]bool{}
	for name, a := range body.Attributes {
		if top && metaArguments[name] {
			continue
		}
		set[name] = true
		p, ok := props[name]
		if !ok {
			ds = append(ds, unsupportedArgument(name, a.NameRange, a.Expr.Range(), props, results))
			continue
		}
		ds = append(ds, checkLiteral(name, a.Expr, p.Type)...)
	}
	for _, b := range body.Blocks {
		name, content := b.Type, b.Body
		if top && metaArguments[name] {
			continue
		}
		if name == "dynamic" && len(b.Labels) == 1 {
			name, content = b.Labels[0], nil
			for _, inner := range b.Body.Blocks {
				if inner.Type == "content" {
					content = inner.Body
				}
			}
		}
		set[name] = true
		ds = append(ds, checkBlock(name, b, content, props, results)...)
	}
	for _, name := range sortedProps(props) {
		if props[name].Required && !set[name] {
			ds = append(ds, errorAt(body.MissingItemRange(), "Missing required argument",
				"The argument %q is required, but no definition was found.", name))
		}
	}
	return ds
}

// checkJSONBody checks a .tf.json resource body: each property is an
// argument or nested block the type has (not one of its read-only
// results), literal values have the attribute's type, and required
// arguments are set. Nested blocks are JSON values here, checked by
// checkValues once evaluated.
func checkJSONBody(body hcl.Body, props, results map[string]schema.Property) hcl.Diagnostics {
	attrs, ds := body.JustAttributes()
	if ds.HasErrors() {
		return ds
	}
	for _, a := range sortedAttrs(attrs) {
		name := a.Name
		if metaArguments[name] || name == "//" {
			continue
		}
		p, ok := props[name]
		if _, result := results[name]; !ok && result {
			ds = append(ds, readOnly(a.Expr.Range()))
			continue
		}
		if !ok {
			ds = append(ds, errorAt(a.NameRange, "Extraneous JSON object property", "No argument or block type is named %q.%s", name, didYouMean(name, props)))
			continue
		}
		ds = append(ds, checkLiteral(name, a.Expr, p.Type)...)
	}
	for _, name := range sortedProps(props) {
		if _, set := attrs[name]; props[name].Required && !set {
			ds = append(ds, errorAt(body.MissingItemRange(), "Missing required argument",
				"The argument %q is required, but no definition was found.", name))
		}
	}
	return ds
}

// checkBlock checks a nested block (content is a dynamic block's content);
// results are the result attributes of the body it is in.
func checkBlock(name string, b *hclsyntax.Block, content *hclsyntax.Body, props, results map[string]schema.Property) hcl.Diagnostics {
	p, ok := props[name]
	if !ok {
		rng := b.TypeRange
		if b.Type == "dynamic" {
			rng = b.LabelRanges[0]
		}
		return hcl.Diagnostics{errorAt(rng, "Unsupported block type", "Blocks of type %q are not expected here.%s", name, didYouMean(name, props))}
	}
	t := blockObject(p.Type)
	if content == nil || t.Kind != schema.TypeObject || t.Properties == nil {
		return nil
	}
	return checkBody(content, t.Properties, blockObject(results[name].Type).Properties, false)
}

// blockObject is the object type of a nested block's type: the element
// of a list, set or map of blocks.
func blockObject(t schema.Type) schema.Type {
	if t.Elem != nil && (t.Kind == schema.TypeArray || t.Kind == schema.TypeMap) {
		return *t.Elem
	}
	return t
}

// unsupportedArgument reports an argument the type does not take: a
// read-only attribute (one of its results but not an input) at its value,
// as terraform reports it, any other name at the name.
func unsupportedArgument(name string, nameRng, valueRng hcl.Range, props, results map[string]schema.Property) *hcl.Diagnostic {
	if _, ok := results[name]; ok {
		return readOnly(valueRng)
	}
	return errorAt(nameRng, "Unsupported argument", "An argument named %q is not expected here.%s", name, didYouMean(name, props))
}

// readOnly is terraform's diagnostic for a value given to an attribute the
// provider computes.
func readOnly(rng hcl.Range) *hcl.Diagnostic {
	return errorAt(rng, "Invalid Configuration for Read-Only Attribute",
		"Cannot set value for this attribute as the provider has marked it as read-only. "+
			"Remove the configuration line setting the value.\n\n"+
			"Refer to the provider documentation or contact the provider developers for "+
			"additional information about configurable and read-only attributes that are supported.")
}

func didYouMean(name string, props map[string]schema.Property) string {
	if best, d := closest(name, sortedProps(props)); d <= 2 && best != "" {
		return fmt.Sprintf(" Did you mean %q?", best)
	}
	return ""
}

func sortedProps(props map[string]schema.Property) []string {
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// checkLiteral checks a value known before running (no references, no
// function calls) against a primitive attribute type or a list or map of
// one.
func checkLiteral(name string, e hcl.Expression, t schema.Type) hcl.Diagnostics {
	ty, ok := ctyType(t)
	if !ok || len(e.Variables()) > 0 {
		return nil
	}
	v, ds := e.Value(nil)
	if ds.HasErrors() || !v.IsWhollyKnown() {
		return nil
	}
	if _, err := convert.Convert(v, ty); err != nil {
		return hcl.Diagnostics{errorAt(e.Range(), "Incorrect attribute value type", "Inappropriate value for attribute %q: %s.", name, err)}
	}
	return nil
}

// ctyType is the cty type of a primitive schema type or a list or map of
// one.
func ctyType(t schema.Type) (cty.Type, bool) {
	switch t.Kind {
	case schema.TypeString:
		return cty.String, true
	case schema.TypeNumber, schema.TypeInteger:
		return cty.Number, true
	case schema.TypeBool:
		return cty.Bool, true
	case schema.TypeArray, schema.TypeMap:
		if t.Elem == nil {
			return cty.NilType, false
		}
		et, ok := ctyType(*t.Elem)
		if !ok {
			return cty.NilType, false
		}
		if t.Kind == schema.TypeMap {
			return cty.Map(et), true
		}
		return cty.List(et), true
	}
	return cty.NilType, false
}
