package hcl

import (
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/engine"
)

// importStmt is an import block: adopt the existing object id at to.
// The engine carries it out with a registration's ImportID and
// ImportUpdates (read the object, then update it when the configuration
// differs, as terraform plans an import and an update); an address the
// state already holds is left alone, as terraform leaves it.
type importStmt struct {
	to      tfAddr         // the target; its key is "" when keyExpr gives it
	keyExpr hcl.Expression // the target's instance key, as an expression of each; or nil
	id      hcl.Expression
	forEach hcl.Expression
	rng     hcl.Range
}

var importSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "to", Required: true},
	{Name: "id", Required: true}, {Name: "for_each"}, {Name: "provider"}}}

func (l *loader) importBlock(m *Module, b *hcl.Block) {
	if m.path != nil {
		l.diags = append(l.diags, errorAt(b.DefRange, "Invalid import configuration",
			"An import block was detected in %q. Import blocks are only allowed in the root module.", moduleName(m)))
		return
	}
	content, ds := b.Body.Content(importSchema)
	l.diags = append(l.diags, ds...)
	if ds.HasErrors() {
		return
	}
	im := &importStmt{id: content.Attributes["id"].Expr, rng: b.DefRange}
	if a, ok := content.Attributes["for_each"]; ok {
		im.forEach = a.Expr
	}
	to := content.Attributes["to"].Expr
	t, ds := hcl.AbsTraversalForExpr(to)
	if ix, ok := to.(*hclsyntax.IndexExpr); ok && ds.HasErrors() {
		t, ds = hcl.AbsTraversalForExpr(ix.Collection)
		im.keyExpr = ix.Key
	}
	if ds.HasErrors() {
		l.diags = append(l.diags, errorAt(to.Range(), "Invalid import address",
			"The \"to\" argument must be a resource address such as aws_instance.web, aws_instance.web[0] or aws_instance.web[each.key]."))
		return
	}
	addr, d := parseAddr(t, to.Range())
	switch {
	case d != nil:
		l.diags = append(l.diags, d)
	case addr.isModule() || addr.dataSrc || im.keyExpr != nil && addr.key != "":
		l.diags = append(l.diags, errorAt(to.Range(), "Invalid import address", "Only managed resources can be imported: \"to\" must name a resource or one of its instances, not %s.", addr))
	default:
		im.to = addr
		m.imports = append(m.imports, im)
	}
}

// linkImports attaches each import to the resource block it targets; one
// whose target has no resource block is kept apart, an error unless
// configuration is generated for it (Config.Program).
func (l *loader) linkImports(root *Module) {
	for _, im := range root.imports {
		rc := targetResource(root, im.to)
		if rc == nil {
			root.unconfigured = append(root.unconfigured, im)
			continue
		}
		rc.imports = append(rc.imports, im)
	}
}

// checkUnconfigured refuses imports whose target has no resource block,
// unless configuration is to be generated for them into a file that does
// not exist yet; as terraform 1.11, it generates none for a target in a
// module, an instance of a counted or for_each resource, or an import
// with for_each.
func (c *Config) checkUnconfigured(out string) error {
	var ds hcl.Diagnostics
	for _, im := range c.root.unconfigured {
		if d := unconfiguredDiag(im, out); d != nil {
			ds = append(ds, d)
		}
	}
	if err := c.src.errorOf(ds); err != nil {
		return err
	}
	if out != "" {
		if _, err := os.Lstat(out); err == nil {
			return fmt.Errorf("cannot generate configuration into %s: the file already exists; choose a new file name, or move or delete %s first", out, out)
		}
	}
	return nil
}

// unconfiguredDiag is the error for an import whose target has no
// resource block, with terraform's wording; nil when configuration is
// generated for it.
func unconfiguredDiag(im *importStmt, out string) *hcl.Diagnostic {
	const summary = "Configuration for import target does not exist"
	target := im.to.String()
	switch {
	case out == "":
		return errorAt(im.rng, summary, "The configuration for the given import target %s does not exist. If you wish to automatically generate config for this resource, use the --generate-config-out option of plinth preview. Otherwise, make sure the target resource exists within your configuration. For example:\n\n  plinth preview --generate-config-out=generated.tf", target)
	case im.to.module != "":
		return errorAt(im.rng, summary, "The configuration for the given import target %s does not exist. All target instances must have an associated configuration to be imported: configuration is generated only for resources of the root module; write the resource block in the module by hand.", target)
	case im.forEach != nil || im.keyExpr != nil || im.to.key != "":
		return errorAt(im.rng, summary, "The given import block is not compatible with config generation. The --generate-config-out option cannot be used with import blocks which use for_each, or resources which use for_each or count: write the resource block of %s by hand, with its count or for_each.", target)
	}
	return nil
}

// targetResource finds the managed resource block an address names,
// following module calls by name.
func targetResource(m *Module, a tfAddr) *resourceConfig {
	if a.module != "" {
		for _, step := range strings.Split(a.module, ".module.") {
			name, _, _ := strings.Cut(strings.TrimPrefix(step, "module."), "[")
			var next *Module
			for _, c := range m.calls {
				if c.name == name {
					next = c.module
				}
			}
			if next == nil {
				return nil
			}
			m = next
		}
	}
	for _, r := range m.resources {
		if r.mode == managed && r.addr() == a.resource() {
			return r
		}
	}
	return nil
}

// importID sets a registration's ImportID when an import block targets
// it and the state does not already hold it.
func (r *run) importID(n *node, _ *modInst, reg *engine.Registration) bool {
	for _, im := range n.resource.imports {
		ctx := r.evalCtx(r.rootInst)
		keys, ok := r.expand(ctx, nil, im.forEach, "import")
		if !ok {
			return false
		}
		for _, k := range keys {
			id, name, ok := r.importTarget(im, withInstance(ctx, k.key, k.each))
			if !ok {
				return false
			}
			if name == reg.Name && !r.mon.Recorded(r.mon.URN(reg.Type, reg.Name, "")) {
				reg.ImportID, reg.ImportUpdates = id, true
			}
		}
	}
	return true
}

// importTarget evaluates one import: the ID and the target's address.
func (r *run) importTarget(im *importStmt, ctx *hcl.EvalContext) (string, string, bool) {
	name := im.to.String()
	if im.keyExpr != nil {
		k, ds := im.keyExpr.Value(ctx)
		if !r.report(ds) {
			return "", "", false
		}
		key, ok := keyText(k)
		if !ok {
			return "", "", r.fail(im.keyExpr.Range(), "Invalid import address", "The instance key of \"to\" must be a known string or number.")
		}
		name += key
	}
	v, ds := im.id.Value(ctx)
	if !r.report(ds) {
		return "", "", false
	}
	v, _ = v.Unmark()
	switch {
	case !v.IsKnown():
		return "", "", r.fail(im.id.Range(), "Invalid import id argument", "The import block \"id\" argument depends on resource attributes that cannot be determined until apply, so plinth cannot plan to import this resource.")
	case v.IsNull() || v.Type() != cty.String || v.AsString() == "":
		return "", "", r.fail(im.id.Range(), "Invalid import id argument", "The import ID must be a non-empty string.")
	}
	return v.AsString(), name, true
}

// importExprs are the expressions of the imports that target a root
// module resource: it waits for what they refer to. (Those that target a
// module's resource are evaluated in the root module when it registers.)
func (rc *resourceConfig) importExprs() []hcl.Expression {
	var out []hcl.Expression
	for _, im := range rc.imports {
		if im.to.module == "" {
			out = appendNonNil(out, im.id, im.forEach, im.keyExpr)
		}
	}
	return out
}
