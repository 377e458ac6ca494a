package hcl

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

var topSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "terraform"},
	{Type: "provider", LabelNames: []string{"name"}},
	{Type: "variable", LabelNames: []string{"name"}},
	{Type: "locals"},
	{Type: "output", LabelNames: []string{"name"}},
	{Type: "resource", LabelNames: []string{"type", "name"}},
	{Type: "data", LabelNames: []string{"type", "name"}},
	{Type: "ephemeral", LabelNames: []string{"type", "name"}},
	{Type: "module", LabelNames: []string{"name"}},
	{Type: "check", LabelNames: []string{"name"}},
	{Type: "moved"}, {Type: "import"}, {Type: "removed"},
}}

// Files lists the configuration files of a directory, in order.
func Files(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || strings.HasPrefix(n, ".") || strings.HasSuffix(n, "~") {
			continue
		}
		if strings.HasSuffix(n, ".tf") || strings.HasSuffix(n, ".tf.json") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, nil
}

// loader reads modules.
type loader struct {
	parser  *hclparse.Parser
	src     sources
	root    string            // the root directory, absolute
	base    string            // the directory files are named from, absolute
	modules map[string]string // installed modules: key -> dir, from modules.json
	diags   hcl.Diagnostics
}

// show is the path of a file as diagnostics name it: relative to the
// root directory (or the base LoadNamedFrom gives), whatever directory plinth was started in (-C DIR is
// "as if started in DIR"), as terraform names files relative to its
// working directory, -chdir's included; a module outside the root is
// named by a path starting with "..".
func (l *loader) show(abs string) string {
	if rel, err := filepath.Rel(l.base, abs); err == nil {
		return rel
	}
	return abs
}

// loadModule parses every file of a directory into a module.
func (l *loader) loadModule(dir string, path []string, parent *Module, call *moduleCall) *Module {
	m := &Module{dir: dir, path: path, parent: parent, call: call, required: map[string]requiredProvider{}}
	files, err := Files(dir)
	if err != nil {
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read module",
			Detail: fmt.Sprintf("Reading the directory %s failed: %v.", l.show(dir), err)})
		return m
	}
	for _, f := range files {
		l.loadFile(m, filepath.Join(dir, f))
	}
	l.checkDuplicates(m)
	for _, c := range m.calls {
		l.loadCall(m, c)
	}
	l.checkRefactoring(m)
	return m
}

func (l *loader) loadFile(m *Module, abs string) {
	name := l.show(abs)
	data, err := os.ReadFile(abs)
	if err != nil {
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read file", Detail: fmt.Sprintf("Reading %s failed: %v.", name, err)})
		return
	}
	l.src[name] = data
	var f *hcl.File
	var ds hcl.Diagnostics
	if strings.HasSuffix(abs, ".json") {
		f, ds = l.parser.ParseJSON(data, name)
	} else {
		f, ds = l.parser.ParseHCL(data, name)
	}
	l.diags = append(l.diags, ds...)
	if f == nil || ds.HasErrors() {
		return
	}
	providerFuncCalls(m, f.Body)
	content, ds := f.Body.Content(topSchema)
	l.diags = append(l.diags, ds...)
	for _, b := range content.Blocks {
		l.block(m, b)
	}
}

// block reads one top-level block.
func (l *loader) block(m *Module, b *hcl.Block) {
	switch b.Type {
	case "terraform":
		l.terraformBlock(m, b)
	case "provider":
		l.providerBlock(m, b)
	case "variable":
		l.variableBlock(m, b)
	case "locals":
		attrs, ds := b.Body.JustAttributes()
		l.diags = append(l.diags, ds...)
		m.locals = append(m.locals, sortedAttrs(attrs)...)
	case "output":
		l.outputBlock(m, b)
	case "resource", "data", "ephemeral":
		l.resourceBlock(m, b)
	case "module":
		l.moduleBlock(m, b)
	case "check":
		l.checkBlock(m, b)
	case "moved":
		l.movedBlock(m, b)
	case "import":
		l.importBlock(m, b)
	case "removed":
		l.removedBlock(m, b)
	default:
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Block ignored",
			Detail: fmt.Sprintf("plinth does not support %s blocks yet and ignores this one; see docs/terraform.md.", b.Type), Subject: b.DefRange.Ptr()})
	}
}

// sortedAttrs orders attributes by their place in the file.
func sortedAttrs(attrs hcl.Attributes) []*hcl.Attribute {
	out := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Range, out[j].Range
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
	return out
}

var terraformSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "required_version"}, {Name: "experiments"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "required_providers"}, {Type: "backend", LabelNames: []string{"type"}},
		{Type: "cloud"}, {Type: "provider_meta", LabelNames: []string{"provider"}}},
}

func (l *loader) terraformBlock(m *Module, b *hcl.Block) {
	content, ds := b.Body.Content(terraformSchema)
	l.diags = append(l.diags, ds...)
	if a, ok := content.Attributes["required_version"]; ok {
		m.requiredVersion = append(m.requiredVersion, a.Expr)
	}
	if a, ok := content.Attributes["experiments"]; ok {
		l.experiments(a)
	}
	for _, rb := range content.Blocks {
		if rb.Type == "required_providers" {
			l.requiredProviders(m, rb)
		}
	}
}

// concludedExperiments are language experiments of past Terraform
// releases that became part of the language, with what replaced each.
var concludedExperiments = map[string]string{
	"module_variable_optional_attrs": "optional object attributes, optional(TYPE, DEFAULT), are part of the language since Terraform 1.3",
	"variable_validation":            "validation blocks in variables are part of the language since Terraform 0.13",
	"config_driven_move":             "moved blocks are part of the language since Terraform 1.1",
}

// experiments refuses a terraform block's experiments argument: released
// Terraform runs no experimental language features, and neither does
// plinth. An experiment that has since concluded is named with what
// replaced it, so the fix is to delete the argument.
func (l *loader) experiments(a *hcl.Attribute) {
	exprs, ds := hcl.ExprList(a.Expr)
	if ds.HasErrors() {
		l.diags = append(l.diags, errorAt(a.Expr.Range(), "Invalid experiments argument",
			"The experiments argument is a list of experiment names, like [name]; plinth runs no experiments, so remove it."))
		return
	}
	for _, e := range exprs {
		name := hcl.ExprAsKeyword(e)
		detail := fmt.Sprintf("The experiment %q is not available: plinth, like released Terraform, runs no experimental language features.", name)
		if now, ok := concludedExperiments[name]; ok {
			detail += fmt.Sprintf(" It has concluded: %s. Remove it from experiments (and the argument, if it is the only one).", now)
		} else {
			detail += " Remove it from experiments, and the configuration that relies on it."
		}
		l.diags = append(l.diags, errorAt(e.Range(), "Module uses experimental features", "%s", detail))
	}
}

func (l *loader) requiredProviders(m *Module, b *hcl.Block) {
	attrs, ds := b.Body.JustAttributes()
	l.diags = append(l.diags, ds...)
	for name, a := range attrs {
		v, ds := a.Expr.Value(nil)
		l.diags = append(l.diags, ds...)
		if ds.HasErrors() {
			continue
		}
		rp := requiredProvider{rng: a.Range}
		switch {
		case v.Type() == cty.String:
			rp.version = v.AsString() // the legacy form: NAME = "VERSION"
		case v.Type().IsObjectType():
			rp.source = stringAttr(v, "source")
			rp.version = stringAttr(v, "version")
		default:
			l.diags = append(l.diags, errorAt(a.Expr.Range(), "Invalid required_providers entry",
				"Write each required provider as NAME = { source = \"hashicorp/NAME\", version = \"~> 1.0\" }."))
			continue
		}
		m.required[name] = rp
	}
}

func stringAttr(obj cty.Value, name string) string {
	if !obj.Type().HasAttribute(name) {
		return ""
	}
	v := obj.GetAttr(name)
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}

var providerSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "version"}}}

func (l *loader) providerBlock(m *Module, b *hcl.Block) {
	content, rest, ds := b.Body.PartialContent(providerSchema)
	l.diags = append(l.diags, ds...)
	p := &providerConfig{name: b.Labels[0], body: withoutMeta(rest), rng: b.DefRange}
	if a, ok := content.Attributes["alias"]; ok {
		l.diags = append(l.diags, gohcl.DecodeExpression(a.Expr, nil, &p.alias)...)
	}
	for _, q := range m.providers {
		if q.key() == p.key() {
			l.diags = append(l.diags, errorAt(b.DefRange, "Duplicate provider configuration",
				"A provider configuration for %q was already given at %s. Give each extra configuration of a provider a unique alias.", p.key(), q.rng))
			return
		}
	}
	m.providers = append(m.providers, p)
}

var variableSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "type"}, {Name: "default"}, {Name: "description"},
		{Name: "sensitive"}, {Name: "nullable"}, {Name: "ephemeral"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "validation"}},
}

func (l *loader) variableBlock(m *Module, b *hcl.Block) {
	content, ds := b.Body.Content(variableSchema)
	l.diags = append(l.diags, ds...)
	v := &variable{name: b.Labels[0], typ: cty.DynamicPseudoType, nullable: true, rng: b.DefRange}
	if a, ok := content.Attributes["type"]; ok {
		v.typ, v.defaults = l.typeConstraint(a.Expr)
	}
	if a, ok := content.Attributes["default"]; ok {
		v.def = a.Expr
	}
	l.boolAttr(content, "sensitive", &v.sensitive)
	l.boolAttr(content, "ephemeral", &v.ephemeral)
	l.boolAttr(content, "nullable", &v.nullable)
	for _, vb := range content.Blocks {
		if c := l.conditionBlock(vb, "condition"); c != nil {
			v.validations = append(v.validations, c)
		}
	}
	m.variables = append(m.variables, v)
}

// typeConstraint decodes a variable's type. A type in quotes ("string",
// "list"), the form of Terraform 0.11, gets a diagnostic saying what to
// write instead rather than hcl's generic one.
func (l *loader) typeConstraint(expr hcl.Expression) (cty.Type, *typeexpr.Defaults) {
	if quoted, ok := quotedType(expr); ok {
		l.diags = append(l.diags, errorAt(expr.Range(), "Invalid quoted type constraint",
			"The type is given in quotes (%q), as Terraform 0.11 and earlier wrote it; quoted types are no longer accepted. Remove the quotes and write %s.",
			quoted, unquotedType(quoted)))
		return cty.DynamicPseudoType, nil
	}
	ty, defaults, ds := typeexpr.TypeConstraintWithDefaults(expr)
	l.diags = append(l.diags, ds...)
	return ty, defaults
}

// quotedType is the text of a type constraint written as a plain quoted
// string.
func quotedType(expr hcl.Expression) (string, bool) {
	tmpl, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok || len(tmpl.Parts) != 1 {
		return "", false
	}
	lit, ok := tmpl.Parts[0].(*hclsyntax.LiteralValueExpr)
	if !ok || lit.Val.Type() != cty.String || lit.Val.IsNull() {
		return "", false
	}
	return lit.Val.AsString(), true
}

// unquotedType is the modern spelling of a quoted 0.11 type: the bare
// collection kinds held strings.
func unquotedType(quoted string) string {
	switch quoted {
	case "list", "map", "set":
		return quoted + "(string)"
	}
	return quoted
}

func (l *loader) boolAttr(content *hcl.BodyContent, name string, dst *bool) {
	if a, ok := content.Attributes[name]; ok {
		l.diags = append(l.diags, gohcl.DecodeExpression(a.Expr, nil, dst)...)
	}
}

var conditionSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "condition", Required: true}, {Name: "error_message", Required: true}}}

var assertSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "condition", Required: true}, {Name: "error_message", Required: true}}}

func (l *loader) conditionBlock(b *hcl.Block, _ string) *condition {
	content, ds := b.Body.Content(conditionSchema)
	l.diags = append(l.diags, ds...)
	if ds.HasErrors() {
		return nil
	}
	return &condition{cond: content.Attributes["condition"].Expr, message: content.Attributes["error_message"].Expr, rng: b.DefRange}
}

var outputSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "value", Required: true}, {Name: "description"},
		{Name: "sensitive"}, {Name: "depends_on"}, {Name: "ephemeral"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}},
}

func (l *loader) outputBlock(m *Module, b *hcl.Block) {
	content, ds := b.Body.Content(outputSchema)
	l.diags = append(l.diags, ds...)
	if ds.HasErrors() {
		return
	}
	o := &output{name: b.Labels[0], value: content.Attributes["value"].Expr, rng: b.DefRange}
	l.boolAttr(content, "sensitive", &o.sensitive)
	l.boolAttr(content, "ephemeral", &o.ephemeral)
	if a, ok := content.Attributes["depends_on"]; ok {
		o.dependsOn = l.traversals(a.Expr)
	}
	for _, pb := range content.Blocks {
		if c := l.conditionBlock(pb, "condition"); c != nil {
			o.preconditions = append(o.preconditions, c)
		}
	}
	m.outputs = append(m.outputs, o)
}

// traversals reads a list of references, as depends_on and
// ignore_changes hold.
func (l *loader) traversals(e hcl.Expression) []hcl.Traversal {
	exprs, ds := hcl.ExprList(e)
	l.diags = append(l.diags, ds...)
	var out []hcl.Traversal
	for _, x := range exprs {
		t, ds := hcl.AbsTraversalForExpr(x)
		l.diags = append(l.diags, ds...)
		if !ds.HasErrors() {
			out = append(out, t)
		}
	}
	return out
}

var checkSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "assert"}, {Type: "data", LabelNames: []string{"type", "name"}}}}

func (l *loader) checkBlock(m *Module, b *hcl.Block) {
	content, ds := b.Body.Content(checkSchema)
	l.diags = append(l.diags, ds...)
	c := &check{name: b.Labels[0], rng: b.DefRange}
	for _, ab := range content.Blocks {
		if ab.Type == "data" {
			l.scopedData(m, c, ab)
			continue
		}
		content, ds := ab.Body.Content(assertSchema)
		l.diags = append(l.diags, ds...)
		if !ds.HasErrors() {
			c.asserts = append(c.asserts, &condition{cond: content.Attributes["condition"].Expr, message: content.Attributes["error_message"].Expr, rng: ab.DefRange})
		}
	}
	m.checks = append(m.checks, c)
}

// scopedData reads a data block nested in a check block: a data source
// read on every plan and apply whose failures are warnings, and which
// only its check block may refer to.
func (l *loader) scopedData(m *Module, c *check, b *hcl.Block) {
	r := l.resourceConfig(b)
	for _, e := range []hcl.Expression{r.count, r.forEach} {
		if e != nil {
			l.diags = append(l.diags, errorAt(e.Range(), "Invalid \"count\" attribute",
				"The \"count\" and \"for_each\" meta-arguments are not supported within nested data blocks. Remove it, or move the data block out of check %q.", c.name))
		}
	}
	r.count, r.forEach, r.check = nil, nil, c
	c.data = append(c.data, r)
	m.resources = append(m.resources, r)
}

// withoutMeta drops a provider block's meta-arguments (alias, version)
// from its native-syntax body, which keeps attributes PartialContent
// took: they are not the provider's configuration.
func withoutMeta(b hcl.Body) hcl.Body {
	sb, ok := b.(*hclsyntax.Body)
	if !ok {
		return b
	}
	cp := *sb
	cp.Attributes = maps.Clone(sb.Attributes)
	delete(cp.Attributes, "alias")
	delete(cp.Attributes, "version")
	return &cp
}
