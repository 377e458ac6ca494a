package hcl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/plinth-iac/plinth/internal/program"
)

// nodeKind says what a graph node evaluates.
type nodeKind int

const (
	kindVariable nodeKind = iota
	kindLocal
	kindProvider
	kindResource
	kindCall   // a module call's expansion: its instances
	kindModule // a module call's value: its outputs
	kindOutput
	kindCheck
)

// node is one object of the configuration, evaluated once per instance
// of its module when everything it refers to has been.
type node struct {
	id   string // an address, for messages
	kind nodeKind
	mod  *Module
	deps map[*node]bool
	idx  int

	variable *variable
	local    *hcl.Attribute
	provider *providerConfig
	resource *resourceConfig
	call     *moduleCall
	output   *output
	check    *check
}

// graph is every node of a configuration and its module tree.
type graph struct {
	nodes []*node
	// byKey finds a node: module path + "\x00" + an address in the module.
	byKey map[string]*node
	diags hcl.Diagnostics
}

func modKey(m *Module, addr string) string { return strings.Join(m.path, ".") + "\x00" + addr }

// build adds the nodes of a module tree, then links them.
func (g *graph) build(root *Module) {
	g.byKey = map[string]*node{}
	g.addNodes(root)
	for _, n := range g.nodes {
		g.link(n)
	}
}

func (g *graph) add(m *Module, addr string, n *node) {
	n.mod, n.deps, n.idx = m, map[*node]bool{}, len(g.nodes)
	n.id = modulePrefix(m) + addr
	g.nodes = append(g.nodes, n)
	g.byKey[modKey(m, addr)] = n
}

// modulePrefix is a module's static address prefix: module.a.module.b.
func modulePrefix(m *Module) string {
	var b strings.Builder
	for _, p := range m.path {
		b.WriteString("module." + p + ".")
	}
	return b.String()
}

func (g *graph) addNodes(m *Module) {
	for _, v := range m.variables {
		g.add(m, "var."+v.name, &node{kind: kindVariable, variable: v})
	}
	for _, a := range m.locals {
		g.add(m, "local."+a.Name, &node{kind: kindLocal, local: a})
	}
	for _, p := range m.providers {
		g.add(m, "provider."+p.key(), &node{kind: kindProvider, provider: p})
	}
	for _, r := range m.resources {
		g.add(m, r.addr(), &node{kind: kindResource, resource: r})
	}
	for _, c := range m.calls {
		g.add(m, "call."+c.name, &node{kind: kindCall, call: c})
		g.add(m, "module."+c.name, &node{kind: kindModule, call: c})
	}
	for _, o := range m.outputs {
		g.add(m, "output."+o.name, &node{kind: kindOutput, output: o})
	}
	for _, c := range m.checks {
		g.add(m, "check."+c.name, &node{kind: kindCheck, check: c})
	}
	for _, c := range m.calls {
		if c.module != nil {
			g.addNodes(c.module)
		}
	}
}

// link finds what a node refers to.
func (g *graph) link(n *node) {
	m := n.mod
	if m.call != nil { // everything in a module waits for its instances
		g.dep(n, g.byKey[modKey(m.parent, "call."+m.call.name)])
	}
	for _, e := range n.exprs() {
		g.refs(n, m, e, nil)
	}
	switch n.kind {
	case kindVariable:
		g.linkVariable(n)
	case kindResource, kindCall:
		g.linkProviders(n, m)
		for _, t := range n.dependsOn() {
			g.traversal(n, m, t, nil)
		}
	case kindModule:
		if c := n.call.module; c != nil {
			for _, o := range c.outputs {
				g.dep(n, g.byKey[modKey(c, "output."+o.name)])
			}
		}
	case kindOutput:
		for _, t := range n.output.dependsOn {
			g.traversal(n, m, t, nil)
		}
	}
}

func (n *node) dependsOn() []hcl.Traversal {
	if n.resource != nil {
		return n.resource.dependsOn
	}
	return n.call.dependsOn
}

// linkVariable makes a module's variable depend on the argument the call
// passes, evaluated in the calling module.
func (g *graph) linkVariable(n *node) {
	m := n.mod
	if m.call == nil {
		return
	}
	if a, ok := m.call.args[n.variable.name]; ok {
		g.refs(n, m.parent, a.Expr, nil)
	}
}

// linkProviders makes a resource or module call wait for the provider
// blocks of its module and those above: a resource only for those of its
// provider, so that a provider's configuration may use what resources of
// other providers (ephemeral ones, say) produce.
func (g *graph) linkProviders(n *node, m *Module) {
	local := ""
	if n.resource != nil {
		local = resourceProviderName(n.resource)
	}
	for p := m; p != nil; p = p.parent {
		for _, pc := range p.providers {
			if local == "" || pc.name == local {
				g.dep(n, g.byKey[modKey(p, "provider."+pc.key())])
			}
		}
	}
}

// resourceProviderName is the local name of a resource's provider: its
// provider meta-argument's, or its type's prefix (random of random_pet).
func resourceProviderName(rc *resourceConfig) string {
	if rc.provider != "" {
		local, _, _ := strings.Cut(rc.provider, ".")
		return local
	}
	local, _, _ := strings.Cut(rc.typ, "_")
	return local
}

func (g *graph) dep(n, d *node) {
	if d != nil && d != n {
		n.deps[d] = true
	}
}

// exprs lists the expressions a node evaluates in its own module.
func (n *node) exprs() []hcl.Expression {
	var out []hcl.Expression
	conds := func(cs []*condition) {
		for _, c := range cs {
			out = append(out, c.cond, c.message)
		}
	}
	switch n.kind {
	case kindVariable:
		conds(n.variable.validations)
	case kindLocal:
		out = append(out, n.local.Expr)
	case kindProvider:
		out = append(out, bodyExprs(n.provider.body, metaArguments)...)
	case kindResource:
		r := n.resource
		out = append(out, bodyExprs(r.body, metaArguments)...)
		out = append(out, r.provisionerExprs()...)
		out = appendNonNil(out, r.count, r.forEach)
		out = append(out, r.lc.replaceTriggeredBy...)
		out = append(out, r.importExprs()...)
		conds(r.lc.preconditions)
		conds(r.lc.postconditions)
	case kindCall:
		out = appendNonNil(out, n.call.count, n.call.forEach)
	case kindOutput:
		out = append(out, n.output.value)
		conds(n.output.preconditions)
	case kindCheck:
		conds(n.check.asserts)
	}
	return out
}

func appendNonNil(out []hcl.Expression, es ...hcl.Expression) []hcl.Expression {
	for _, e := range es {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// bodyExprs lists the expressions of a body: every attribute of the
// native syntax, nested blocks and dynamic blocks included, or every
// attribute of a JSON body.
func bodyExprs(b hcl.Body, skip map[string]bool) []hcl.Expression {
	sb, ok := b.(*hclsyntax.Body)
	if !ok {
		attrs, _ := b.JustAttributes()
		var out []hcl.Expression
		for name, a := range attrs {
			if !skip[name] {
				out = append(out, a.Expr)
			}
		}
		return out
	}
	var out []hcl.Expression
	for name, a := range sb.Attributes {
		if !skip[name] {
			out = append(out, a.Expr)
		}
	}
	for _, blk := range sb.Blocks {
		if !skip[blk.Type] {
			out = append(out, bodyExprs(blk.Body, nil)...)
		}
	}
	return out
}

// refs links the references of an expression evaluated in module m;
// names bound locally (a dynamic block's iterator) are skipped.
func (g *graph) refs(n *node, m *Module, e hcl.Expression, bound map[string]bool) {
	for _, t := range e.Variables() {
		g.traversal(n, m, t, bound)
	}
}

// traversal links one reference, and reports one to nothing.
func (g *graph) traversal(n *node, m *Module, t hcl.Traversal, bound map[string]bool) {
	root := t.RootName()
	switch root {
	case "path", "terraform", "count", "each", "self":
		return
	}
	if bound[root] || isIterator(n, root) {
		return
	}
	addr, ok := refAddr(t)
	if !ok {
		g.diags = append(g.diags, errorAt(t.SourceRange(), "Invalid reference",
			"A reference to a %s needs a name after it, such as %s.NAME.", root, root))
		return
	}
	d, ok := g.byKey[modKey(m, addr)]
	if !ok {
		g.diags = append(g.diags, g.undeclared(m, t, addr))
		return
	}
	if c := scopeOf(d); c != nil && scopeOf(n) != c {
		g.diags = append(g.diags, errorAt(t.SourceRange(), "Reference to scoped resource",
			"The referenced data resource %q %q is not available from this context: it is nested in check %q, and only that check block may refer to it. Move the data block out of the check block to use it elsewhere.",
			d.resource.typ, d.resource.name, c.name))
		return
	}
	g.dep(n, d)
}

// scopeOf is the check block a node belongs to: a check itself, or a
// data source nested in one; nil for anything else.
func scopeOf(n *node) *check {
	switch {
	case n.check != nil:
		return n.check
	case n.resource != nil:
		return n.resource.check
	}
	return nil
}

// isIterator reports whether a name is a dynamic block's iterator in the
// node's body: those references are local to the block.
func isIterator(n *node, name string) bool {
	var body hcl.Body
	switch {
	case n.resource != nil:
		body = n.resource.body
	case n.provider != nil:
		body = n.provider.body
	default:
		return false
	}
	return iterators(body)[name]
}

// iterators lists the iterator names of a body's dynamic blocks.
func iterators(b hcl.Body) map[string]bool {
	out := map[string]bool{}
	sb, ok := b.(*hclsyntax.Body)
	if !ok {
		return out
	}
	for _, blk := range sb.Blocks {
		if blk.Type == "dynamic" && len(blk.Labels) == 1 {
			out[blk.Labels[0]] = true
			if it, ok := blk.Body.Attributes["iterator"]; ok {
				out[hcl.ExprAsKeyword(it.Expr)] = true
			}
		}
		for k := range iterators(blk.Body) {
			out[k] = true
		}
	}
	return out
}

// refAddr is the address a reference names in its module: var.x,
// local.x, module.x, data.t.n, t.n.
func refAddr(t hcl.Traversal) (string, bool) {
	root := t.RootName()
	names := []string{root}
	for _, step := range t[1:] {
		a, ok := step.(hcl.TraverseAttr)
		if !ok {
			break
		}
		names = append(names, a.Name)
	}
	want := 2
	if root == "data" || root == "ephemeral" {
		want = 3
	}
	if len(names) < want {
		return "", false
	}
	return strings.Join(names[:want], "."), true
}

// undeclared explains a reference to nothing.
func (g *graph) undeclared(m *Module, t hcl.Traversal, addr string) *hcl.Diagnostic {
	rng := t.SourceRange()
	parts := strings.SplitN(addr, ".", 3)
	switch parts[0] {
	case "var":
		return errorAt(rng, "Reference to undeclared input variable",
			"An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", parts[1], parts[1])
	case "local":
		return errorAt(rng, "Reference to undeclared local value",
			"A local value with the name %q has not been declared. Declare it in a locals block.%s", parts[1], g.suggest(m, "local."+parts[1]))
	case "module":
		return errorAt(rng, "Reference to undeclared module",
			"No module call named %q is declared in %s. Declare it with a module %q block.", parts[1], moduleName(m), parts[1])
	}
	return errorAt(rng, "Reference to undeclared resource",
		"A managed resource %q has not been declared in %s.%s", addr, moduleName(m), g.suggest(m, addr))
}

func moduleName(m *Module) string {
	if len(m.path) == 0 {
		return "the root module"
	}
	return "module." + strings.Join(m.path, ".module.")
}

// suggest names a declared address close to addr.
func (g *graph) suggest(m *Module, addr string) string {
	prefix := modKey(m, "")
	var best string
	bestD := 3
	var keys []string
	for k := range g.byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if a, ok := strings.CutPrefix(k, prefix); ok {
			if d := program.EditDistance(a, addr); d < bestD {
				best, bestD = a, d
			}
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" Did you mean %s?", best)
}

// cycles reports every dependency cycle.
func (g *graph) cycles() {
	const (
		white = iota
		grey
		black
	)
	color := make([]int, len(g.nodes))
	var stack []*node
	var visit func(n *node)
	visit = func(n *node) {
		color[n.idx] = grey
		stack = append(stack, n)
		for _, d := range sortedDeps(n) {
			switch color[d.idx] {
			case grey:
				g.cycle(stack, d)
			case white:
				visit(d)
			}
		}
		stack = stack[:len(stack)-1]
		color[n.idx] = black
	}
	for _, n := range g.nodes {
		if color[n.idx] == white {
			visit(n)
		}
	}
}

func (g *graph) cycle(stack []*node, to *node) {
	var names []string
	start := 0
	for i, s := range stack {
		if s == to {
			start = i
		}
	}
	for _, s := range stack[start:] {
		names = append(names, s.id)
	}
	names = append(names, to.id)
	g.diags = append(g.diags, errorAt(to.rangeOf(), "Cycle",
		"These objects refer to each other in a cycle: %s. Break the cycle by removing one of the references.", strings.Join(names, " -> ")))
}

func sortedDeps(n *node) []*node {
	out := make([]*node, 0, len(n.deps))
	for d := range n.deps {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].idx < out[j].idx })
	return out
}

// rangeOf is where a node is declared.
func (n *node) rangeOf() hcl.Range {
	switch {
	case n.variable != nil:
		return n.variable.rng
	case n.local != nil:
		return n.local.NameRange
	case n.provider != nil:
		return n.provider.rng
	case n.resource != nil:
		return n.resource.rng
	case n.call != nil:
		return n.call.rng
	case n.output != nil:
		return n.output.rng
	}
	return n.check.rng
}
