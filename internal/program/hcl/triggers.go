package hcl

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/engine"
)

// replace_triggered_by: a resource instance is replaced when a resource
// instance it names is replaced or updated in this run, or, for a
// reference to an attribute, when that attribute changes. The engine says
// what it did to each instance (engine.Registered's Op and Changed); the
// run keeps that by address, and each reference is evaluated to an
// address in the referring instance's context (count.index, each.key).

// recordOutcome keeps what the engine did to a registered instance.
func (r *run) recordOutcome(res engine.Registered) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.outcomes == nil {
		r.outcomes = map[string]engine.Registered{}
	}
	r.outcomes[res.URN.Name()] = res
}

// triggered reports whether a replace_triggered_by reference of the
// instance names something this run replaces or changes; false with
// diagnostics reported when a reference is not one it can follow.
func (r *run) triggered(rc *resourceConfig, inst *modInst, ctx *hcl.EvalContext) (bool, bool) {
	for _, e := range rc.lc.replaceTriggeredBy {
		addr, attr, ok := r.triggerRef(e, ctx)
		if !ok {
			return false, false
		}
		if r.changedAt(inst.prefix+addr, attr) {
			return true, true
		}
	}
	return false, true
}

// changedAt reports whether an instance at addr (or any instance of the
// resource addr names) was replaced or updated, or, given attr, had attr
// changed.
func (r *run) changedAt(addr, attr string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for name, res := range r.outcomes {
		if name != addr && !strings.HasPrefix(name, addr+"[") {
			continue
		}
		switch {
		case res.Op == engine.OpReplace:
			return true
		case res.Op == engine.OpUpdate && (attr == "" || slices.Contains(res.Changed, attr)):
			return true
		}
	}
	return false
}

// triggerRef evaluates a replace_triggered_by reference to the address of
// a resource or instance in the module and the attribute named, if any.
func (r *run) triggerRef(e hcl.Expression, ctx *hcl.EvalContext) (addr, attr string, ok bool) {
	t, good := flattenRef(e, ctx)
	if !good || len(t) < 2 || t.RootName() == "data" || t.RootName() == "var" || t.RootName() == "local" || t.RootName() == "module" {
		return "", "", r.fail(e.Range(), "Invalid replace_triggered_by expression",
			"Only references to managed resources, their instances and attributes may be used in replace_triggered_by, with count.index or each.key as the instance key, such as terraform_data.a, aws_instance.web[count.index] or random_pet.p.id.")
	}
	name, _ := t[1].(hcl.TraverseAttr)
	addr = t.RootName() + "." + name.Name
	rest := t[2:]
	if len(rest) > 0 {
		if ix, isIndex := rest[0].(hcl.TraverseIndex); isIndex {
			addr += instanceKey{key: ix.Key}.suffix()
			rest = rest[1:]
		}
	}
	if len(rest) > 0 {
		if a, isAttr := rest[0].(hcl.TraverseAttr); isAttr {
			attr = a.Name
		}
	}
	return addr, attr, true
}

// flattenRef turns a reference with evaluated index keys
// (resource.name[count.index].attr) into a traversal.
func flattenRef(e hcl.Expression, ctx *hcl.EvalContext) (hcl.Traversal, bool) {
	switch e := e.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		return e.Traversal, true
	case *hclsyntax.IndexExpr:
		t, ok := flattenRef(e.Collection, ctx)
		k, ds := e.Key.Value(ctx)
		if !ok || ds.HasErrors() || !k.IsKnown() || k.IsNull() || (k.Type() != cty.String && k.Type() != cty.Number) {
			return nil, false
		}
		return append(slices.Clone(t), hcl.TraverseIndex{Key: k}), true
	case *hclsyntax.RelativeTraversalExpr:
		t, ok := flattenRef(e.Source, ctx)
		return append(slices.Clone(t), e.Traversal...), ok
	}
	return nil, false
}
