package hcl

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// metaArguments are a resource block's arguments that are not the
// resource's configuration.
var metaArguments = map[string]bool{"count": true, "for_each": true, "provider": true, "depends_on": true,
	"lifecycle": true, "provisioner": true, "connection": true}

var resourceSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "for_each"}, {Name: "provider"}, {Name: "depends_on"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "lifecycle"}, {Type: "connection"},
		{Type: "provisioner", LabelNames: []string{"type"}}},
}

func (l *loader) resourceBlock(m *Module, b *hcl.Block) {
	m.resources = append(m.resources, l.resourceConfig(b))
}

// resourceConfig reads a resource, data or ephemeral block.
func (l *loader) resourceConfig(b *hcl.Block) *resourceConfig {
	mode := map[string]string{"resource": managed, "data": dataMode, "ephemeral": ephemeral}[b.Type]
	content, rest, ds := b.Body.PartialContent(resourceSchema)
	l.diags = append(l.diags, ds...)
	r := &resourceConfig{mode: mode, typ: b.Labels[0], name: b.Labels[1], body: rest, rng: b.DefRange}
	if !hclsyntax.ValidIdentifier(r.typ) {
		l.diags = append(l.diags, errorAt(b.LabelRanges[0], "Invalid resource type name",
			"%q cannot name a type: a type name starts with a letter or an underscore and holds only letters, digits, underscores and dashes, such as random_pet, or external for a type named like its provider.", r.typ))
	}
	if a, ok := content.Attributes["count"]; ok {
		r.count = a.Expr
	}
	if a, ok := content.Attributes["for_each"]; ok {
		r.forEach = a.Expr
	}
	if r.count != nil && r.forEach != nil {
		l.diags = append(l.diags, errorAt(content.Attributes["for_each"].NameRange, "Invalid combination of \"count\" and \"for_each\"",
			"The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created."))
	}
	if a, ok := content.Attributes["provider"]; ok {
		r.provider, r.providerRange = l.providerRef(a.Expr), a.Expr.Range()
	}
	if a, ok := content.Attributes["depends_on"]; ok {
		r.dependsOn = l.traversals(a.Expr)
	}
	for _, lb := range content.Blocks {
		switch lb.Type {
		case "lifecycle":
			l.lifecycleBlock(&r.lc, lb)
		case "provisioner":
			r.provisioners = append(r.provisioners, l.provisionerBlock(lb))
		case "connection":
			r.connection = lb.Body
		}
	}
	if len(r.provisioners) > 0 && mode != managed {
		l.diags = append(l.diags, errorAt(r.provisioners[0].rng, "Invalid provisioner block",
			"Provisioners can be used only in managed resources (resource blocks), not in %s blocks; move it to a resource.", b.Type))
	}
	l.checkDestroyRefs(r)
	return r
}

// providerRef reads a provider reference: NAME or NAME.ALIAS.
func (l *loader) providerRef(e hcl.Expression) string {
	t, ds := hcl.AbsTraversalForExpr(e)
	if ds.HasErrors() || len(t) > 2 {
		l.diags = append(l.diags, errorAt(e.Range(), "Invalid provider reference",
			"A provider reference is a provider name with an optional alias, such as random or random.west, without quotes."))
		return ""
	}
	key := t.RootName()
	if len(t) == 2 {
		if a, ok := t[1].(hcl.TraverseAttr); ok {
			key += "." + a.Name
		}
	}
	return key
}

var lifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "create_before_destroy"}, {Name: "prevent_destroy"},
		{Name: "ignore_changes"}, {Name: "replace_triggered_by"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}, {Type: "postcondition"}},
}

func (l *loader) lifecycleBlock(lc *lifecycle, b *hcl.Block) {
	content, ds := b.Body.Content(lifecycleSchema)
	l.diags = append(l.diags, ds...)
	l.boolAttr(content, "create_before_destroy", &lc.createBeforeDestroy)
	l.boolAttr(content, "prevent_destroy", &lc.preventDestroy)
	if a, ok := content.Attributes["ignore_changes"]; ok {
		if kw := hcl.ExprAsKeyword(a.Expr); kw == "all" {
			lc.ignoreAll = true
		} else {
			lc.ignoreChanges = l.traversals(a.Expr)
		}
	}
	if a, ok := content.Attributes["replace_triggered_by"]; ok {
		exprs, ds := hcl.ExprList(a.Expr)
		l.diags = append(l.diags, ds...)
		lc.replaceTriggeredBy = exprs
	}
	for _, cb := range content.Blocks {
		c := l.conditionBlock(cb, "condition")
		if c == nil {
			continue
		}
		if cb.Type == "precondition" {
			lc.preconditions = append(lc.preconditions, c)
		} else {
			lc.postconditions = append(lc.postconditions, c)
		}
	}
}

var moduleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "source", Required: true},
	{Name: "version"}, {Name: "count"}, {Name: "for_each"}, {Name: "depends_on"}, {Name: "providers"}}}

func (l *loader) moduleBlock(m *Module, b *hcl.Block) {
	content, rest, ds := b.Body.PartialContent(moduleSchema)
	l.diags = append(l.diags, ds...)
	if ds.HasErrors() {
		return
	}
	c := &moduleCall{name: b.Labels[0], rng: b.DefRange, providers: map[string]string{}}
	l.diags = append(l.diags, gohcl.DecodeExpression(content.Attributes["source"].Expr, nil, &c.source)...)
	if a, ok := content.Attributes["count"]; ok {
		c.count = a.Expr
	}
	if a, ok := content.Attributes["for_each"]; ok {
		c.forEach = a.Expr
	}
	if a, ok := content.Attributes["depends_on"]; ok {
		c.dependsOn = l.traversals(a.Expr)
	}
	if a, ok := content.Attributes["providers"]; ok {
		pairs, ds := hcl.ExprMap(a.Expr)
		l.diags = append(l.diags, ds...)
		for _, p := range pairs {
			c.providers[l.providerRef(p.Key)] = l.providerRef(p.Value)
		}
	}
	args, ds := rest.JustAttributes()
	l.diags = append(l.diags, ds...)
	c.args = args
	m.calls = append(m.calls, c)
}

// loadCall finds and loads the module a call names: a local path, or one
// terraform init installed.
func (l *loader) loadCall(m *Module, c *moduleCall) {
	path := append(append([]string(nil), m.path...), c.name)
	dir := ""
	if strings.HasPrefix(c.source, "./") || strings.HasPrefix(c.source, "../") {
		dir = filepath.Join(m.dir, c.source)
	} else if d, ok := l.installed()[strings.Join(path, ".")]; ok {
		dir = filepath.Join(l.root, d)
	}
	if info, err := os.Stat(dir); dir == "" || err != nil || !info.IsDir() {
		l.diags = append(l.diags, errorAt(c.rng, "Module not installed",
			"The module %q (source %q) is not there: plinth reads local paths (starting with ./ or ../) and modules installed by `plinth init` or `terraform init` (.terraform/modules/modules.json). Fix the source, or run `plinth init` to install it.", c.name, c.source))
		return
	}
	if len(path) > 20 {
		l.diags = append(l.diags, errorAt(c.rng, "Module nesting too deep", "Module %q calls modules more than 20 deep; a module probably calls itself.", c.name))
		return
	}
	c.module = l.loadModule(dir, path, m, c)
}

// installed reads .terraform/modules/modules.json once.
func (l *loader) installed() map[string]string {
	if l.modules != nil {
		return l.modules
	}
	l.modules = map[string]string{}
	data, err := os.ReadFile(filepath.Join(l.root, ".terraform", "modules", "modules.json"))
	if err != nil {
		return l.modules
	}
	var manifest struct {
		Modules []struct{ Key, Dir string } `json:"Modules"`
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Unreadable module manifest",
			Detail: fmt.Sprintf(".terraform/modules/modules.json is not valid JSON (%v); run `plinth init` (or `terraform init`) again.", err)})
	}
	for _, e := range manifest.Modules {
		l.modules[e.Key] = e.Dir
	}
	return l.modules
}

// checkDuplicates reports names declared twice in a module.
func (l *loader) checkDuplicates(m *Module) {
	seen := map[string]hcl.Range{}
	claim := func(kind, key string, rng hcl.Range) {
		if prev, ok := seen[kind+" "+key]; ok {
			l.diags = append(l.diags, errorAt(rng, "Duplicate "+kind+" declaration",
				"A %s named %q was already declared at %s. Names must be unique within a module: rename or remove one of them.", kind, key, prev))
			return
		}
		seen[kind+" "+key] = rng
	}
	for _, v := range m.variables {
		claim("variable", v.name, v.rng)
	}
	for _, a := range m.locals {
		claim("local value", a.Name, a.NameRange)
	}
	for _, o := range m.outputs {
		claim("output", o.name, o.rng)
	}
	for _, r := range m.resources {
		claim("resource", r.addr(), r.rng)
	}
	for _, c := range m.calls {
		claim("module call", c.name, c.rng)
	}
	for _, c := range m.checks {
		claim("check", c.name, c.rng)
	}
}
