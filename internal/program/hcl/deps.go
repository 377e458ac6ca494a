package hcl

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// instanceRef is a resource's direct reference to one instance of
// another resource in its module: random_pet.p[count.index].
type instanceRef struct {
	target *node
	key    hcl.Expression // nil when the key is lit
	lit    cty.Value
}

// narrowRefs finds the resources n refers to only instance by instance
// (TYPE.NAME[KEY], directly, never whole, through depends_on or through
// a variable, local or module): each instance of n then depends on the
// instances it names, not on all of them, so N instances that each use
// one of N others record N dependencies, not N*N.
func (r *run) narrowRefs(n *node) ([]instanceRef, map[*node]bool) {
	target := func(t hcl.Traversal) (*node, int) {
		addr, ok := refAddr(t)
		d := r.c.graph.byKey[modKey(n.mod, addr)]
		if !ok || d == nil || d.kind != kindResource || d.resource.mode != managed || !n.deps[d] {
			return nil, 0
		}
		return d, 2
	}
	refs, whole, ok := instanceRefs(n.exprs(), target)
	if !ok {
		return nil, nil
	}
	for _, t := range n.dependsOn() {
		if d, _ := target(t); d != nil {
			whole[d] = true
		}
	}
	narrow := map[*node]bool{}
	for _, ref := range refs {
		if !whole[ref.target] && !r.indirect(n, ref.target) {
			narrow[ref.target] = true
		}
	}
	return refs, narrow
}

// instanceRefs finds, in expressions, the references to one instance
// of a resource target knows (TYPE.NAME[KEY], TYPE.NAME[0].attr) and the
// resources referred to whole; false if an expression is not native
// syntax.
func instanceRefs(es []hcl.Expression, target func(hcl.Traversal) (*node, int)) ([]instanceRef, map[*node]bool, bool) {
	whole, handled := map[*node]bool{}, map[*hclsyntax.ScopeTraversalExpr]bool{}
	var refs []instanceRef
	for _, e := range es {
		se, ok := e.(hclsyntax.Expression)
		if !ok {
			return nil, nil, false
		}
		hclsyntax.VisitAll(se, func(x hclsyntax.Node) hcl.Diagnostics {
			switch x := x.(type) {
			case *hclsyntax.IndexExpr:
				if st, ok := x.Collection.(*hclsyntax.ScopeTraversalExpr); ok {
					if d, steps := target(st.Traversal); d != nil && len(st.Traversal) == steps {
						refs, handled[st] = append(refs, instanceRef{target: d, key: x.Key}), true
					}
				}
			case *hclsyntax.ScopeTraversalExpr:
				d, steps := target(x.Traversal)
				if d == nil || handled[x] {
					return nil
				}
				if ix, ok := indexStep(x.Traversal, steps); ok {
					refs = append(refs, instanceRef{target: d, lit: ix.Key})
					return nil
				}
				whole[d] = true
			}
			return nil
		})
	}
	return refs, whole, true
}

// indexStep is the index right after a traversal's first steps.
func indexStep(t hcl.Traversal, steps int) (hcl.TraverseIndex, bool) {
	if len(t) <= steps {
		return hcl.TraverseIndex{}, false
	}
	ix, ok := t[steps].(hcl.TraverseIndex)
	return ix, ok
}

// indirect reports whether n reaches d through a variable, local, module
// or output rather than only directly.
func (r *run) indirect(n, d *node) bool {
	seen := map[*node]bool{}
	var walk func(m *node) bool
	walk = func(m *node) bool {
		for x := range m.deps {
			if x == d && m != n {
				return true
			}
			if seen[x] || x.kind == kindResource {
				continue
			}
			seen[x] = true
			if walk(x) {
				return true
			}
		}
		return false
	}
	return walk(n)
}

// narrowDeps are a resource's dependencies split once for its instances:
// base, which every instance has, and the instances of the narrowed
// resources by name.
type narrowDeps struct {
	base   dependencies
	refs   []instanceRef
	narrow map[*node]bool
	byName map[string]resource.URN
	all    map[*node][]resource.URN
	group  map[*node]resource.URN // a narrowed counted resource's group
}

// splitDeps splits deps into what every instance keeps and the narrowed
// resources' instances (and groups).
func (r *run) splitDeps(deps dependencies, refs []instanceRef, narrow map[*node]bool) *narrowDeps {
	nd := &narrowDeps{refs: refs, narrow: narrow, byName: map[string]resource.URN{},
		all: map[*node][]resource.URN{}, group: map[*node]resource.URN{}}
	if len(narrow) == 0 {
		nd.base = deps
		return nd
	}
	owned := map[resource.URN]bool{}
	r.mu.Lock()
	for d := range narrow {
		nd.all[d] = append([]resource.URN(nil), r.st[d.idx].urns...)
		if g, ok := groupOf(nd.all[d]); ok {
			nd.group[d], owned[g] = g, true
		}
		for _, u := range nd.all[d] {
			owned[u], nd.byName[u.Name()] = true, u
		}
	}
	r.mu.Unlock()
	nd.base = dependencies{urns: without(deps.urns, owned), groups: without(deps.groups, owned)}
	return nd
}

// without returns us less the URNs in drop.
func without(us []resource.URN, drop map[resource.URN]bool) []resource.URN {
	var out []resource.URN
	for _, u := range us {
		if !drop[u] {
			out = append(out, u)
		}
	}
	return out
}

// forInstance is one instance's dependencies: of each narrowed resource,
// only the instances its keys name in ctx; a key that cannot be known,
// or names no instance, keeps all of that resource's instances (its
// group, for a counted resource).
func (nd *narrowDeps) forInstance(inst *modInst, ctx *hcl.EvalContext) dependencies {
	if len(nd.narrow) == 0 {
		return nd.base
	}
	out := dependencies{urns: append([]resource.URN(nil), nd.base.urns...), groups: append([]resource.URN(nil), nd.base.groups...)}
	added := map[resource.URN]bool{}
	whole := map[*node]bool{}
	for _, ref := range nd.refs {
		if !nd.narrow[ref.target] {
			continue
		}
		u, ok := nd.named(inst, ref, ctx)
		if !ok {
			whole[ref.target] = true
			continue
		}
		if !added[u] {
			added[u], out.urns = true, append(out.urns, u)
		}
	}
	for d := range whole {
		if g, ok := nd.group[d]; ok {
			out.groups = append(out.groups, g)
			continue
		}
		for _, u := range nd.all[d] {
			if !added[u] {
				added[u], out.urns = true, append(out.urns, u)
			}
		}
	}
	return out
}

// named is the instance a reference's key names in ctx, if it can be
// known and names one.
func (nd *narrowDeps) named(inst *modInst, ref instanceRef, ctx *hcl.EvalContext) (resource.URN, bool) {
	k := ref.lit
	if ref.key != nil {
		var ds hcl.Diagnostics
		if k, ds = ref.key.Value(ctx); ds.HasErrors() {
			return "", false
		}
	}
	if k == cty.NilVal || !k.IsWhollyKnown() || k.IsNull() || k.IsMarked() || (k.Type() != cty.Number && k.Type() != cty.String) {
		return "", false
	}
	u, ok := nd.byName[inst.prefix+ref.target.resource.addr()+instanceKey{key: k}.suffix()]
	return u, ok
}
