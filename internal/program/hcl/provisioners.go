package hcl

import (
	"errors"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// provisionerConfig is a resource's provisioner block:
//
//	provisioner "local-exec" {
//	  command    = "echo ${self.id} > id.txt"
//	  when       = destroy   # optional: create (default) or destroy
//	  on_failure = continue  # optional: fail (default) or continue
//	  connection { ... }     # optional: overrides the resource's
//	}
type provisionerConfig struct {
	typ, when, onFailure string
	body                 hcl.Body // the provisioner's own arguments
	connection           hcl.Body // its connection block, or nil
	rng                  hcl.Range
}

// provisionerMeta are a provisioner block's arguments that are not the
// provisioner's configuration.
var provisionerMeta = map[string]bool{"when": true, "on_failure": true, "connection": true}

var provisionerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "when"}, {Name: "on_failure"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "connection"}},
}

// provisionerBlock reads a provisioner block.
func (l *loader) provisionerBlock(b *hcl.Block) *provisionerConfig {
	content, rest, ds := b.Body.PartialContent(provisionerSchema)
	l.diags = append(l.diags, ds...)
	p := &provisionerConfig{typ: b.Labels[0], body: rest, rng: b.DefRange}
	if a, ok := content.Attributes["when"]; ok {
		p.when = l.keyword(a, "create", "destroy")
	}
	if a, ok := content.Attributes["on_failure"]; ok {
		p.onFailure = l.keyword(a, "continue", "fail")
	}
	for _, cb := range content.Blocks {
		if p.connection != nil {
			l.diags = append(l.diags, errorAt(cb.DefRange, "Duplicate connection block",
				"This provisioner already has a connection block at %s; remove one of them.", p.connection.MissingItemRange()))
			continue
		}
		p.connection = cb.Body
	}
	if p.typ == "" {
		l.diags = append(l.diags, errorAt(b.LabelRanges[0], "Invalid provisioner type",
			"A provisioner needs a type: local-exec, file, or the name of a provisioner plugin (terraform-provisioner-NAME)."))
	}
	return p
}

// keyword reads a when or on_failure argument: one of the keywords, as
// Terraform words its error.
func (l *loader) keyword(a *hcl.Attribute, first, second string) string {
	kw := hcl.ExprAsKeyword(a.Expr)
	if kw == first || kw == second {
		return kw
	}
	l.diags = append(l.diags, errorAt(a.Expr.Range(), "Invalid \""+a.Name+"\" keyword",
		"The %q argument requires one of the following keywords: %s or %s.", a.Name, first, second))
	return ""
}

// checkDestroyRefs reports references a destroy-time provisioner (or
// the connection it uses) must not make: like Terraform, only self,
// count.index, each.key, path and terraform.
func (l *loader) checkDestroyRefs(r *resourceConfig) {
	var exprs []hcl.Expression
	destroy := false
	for _, p := range r.provisioners {
		if p.when != "destroy" {
			continue
		}
		destroy = true
		exprs = append(exprs, bodyExprs(p.body, provisionerMeta)...)
		if p.connection != nil {
			exprs = append(exprs, bodyExprs(p.connection, nil)...)
		}
	}
	if destroy && r.connection != nil {
		exprs = append(exprs, bodyExprs(r.connection, nil)...)
	}
	for _, e := range exprs {
		l.checkSelfOnly(e)
	}
}

func (l *loader) checkSelfOnly(e hcl.Expression) {
	for _, v := range e.Variables() {
		if selfRef(v) {
			continue
		}
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError,
			Summary: "Invalid reference from destroy provisioner",
			Detail: "Destroy-time provisioners and their connection configurations may only " +
				"reference attributes of the related resource, via 'self', 'count.index', " +
				"or 'each.key'.\n\nReferences to other resources during the destroy phase " +
				"can cause dependency cycles and interact poorly with create_before_destroy.",
			Subject: e.Range().Ptr()})
		return
	}
}

// selfRef says whether a reference is one a destroy-time provisioner may
// make.
func selfRef(t hcl.Traversal) bool {
	attr := ""
	if len(t) == 2 {
		if a, ok := t[1].(hcl.TraverseAttr); ok {
			attr = a.Name
		}
	}
	switch t.RootName() {
	case "self", "path", "terraform":
		return true
	case "count":
		return attr == "index"
	case "each":
		return attr == "key"
	}
	return false
}

// provisionerExprs lists the expressions of a resource's provisioners and
// connection blocks, for the graph.
func (r *resourceConfig) provisionerExprs() []hcl.Expression {
	var out []hcl.Expression
	if r.connection != nil {
		out = append(out, bodyExprs(r.connection, nil)...)
	}
	for _, p := range r.provisioners {
		out = append(out, bodyExprs(p.body, provisionerMeta)...)
		if p.connection != nil {
			out = append(out, bodyExprs(p.connection, nil)...)
		}
	}
	return out
}

// provisioners builds a resource instance's provisioners. Their
// arguments are evaluated now, with self unknown, to report errors early,
// and again by the engine once the resource's values are known (Resolve).
func (r *run) provisioners(rc *resourceConfig, ctx *hcl.EvalContext) ([]engine.Provisioner, bool) {
	var out []engine.Provisioner
	ok := true
	for _, p := range rc.provisioners {
		eval := func(self cty.Value) (resource.Object, resource.Object, hcl.Diagnostics) {
			return evalProvisioner(rc, p, ctx, self)
		}
		cfg, conn, ds := eval(cty.DynamicVal)
		if !r.report(ds) {
			ok = false
			continue
		}
		resolve := func(self resource.Object) (resource.Object, resource.Object, error) {
			cfg, conn, ds := eval(objectToCty(self))
			if ds.HasErrors() {
				return nil, nil, errors.Join(ds.Errs()...)
			}
			return cfg, conn, nil
		}
		out = append(out, engine.Provisioner{Type: p.typ, Config: cfg, Connection: conn,
			When: p.when, OnFailure: p.onFailure, Resolve: resolve})
	}
	return out, ok
}

// evalProvisioner evaluates a provisioner's arguments and its connection
// (the resource's connection block, overridden argument by argument by
// the provisioner's) with self set.
func evalProvisioner(rc *resourceConfig, p *provisionerConfig, ctx *hcl.EvalContext, self cty.Value) (resource.Object, resource.Object, hcl.Diagnostics) {
	child := ctx.NewChild()
	child.Variables = map[string]cty.Value{"self": self}
	vals, diags := evalBody(p.body, child, provisionerMeta)
	cfg := objectOf(vals)
	var conn resource.Object
	for _, b := range []hcl.Body{rc.connection, p.connection} {
		if b == nil {
			continue
		}
		vals, ds := evalBody(b, child, nil)
		diags = append(diags, ds...)
		if conn == nil {
			conn = resource.Object{}
		}
		for k, v := range objectOf(vals) {
			conn[k] = v
		}
	}
	return cfg, conn, diags
}

// objectOf converts evaluated arguments to an object, leaving out null
// ones as terraform leaves them unset.
func objectOf(vals map[string]cty.Value) resource.Object {
	out := resource.Object{}
	for k, v := range vals {
		if v.IsKnown() && v.IsNull() {
			continue
		}
		out[k] = fromCty(v)
	}
	return out
}
