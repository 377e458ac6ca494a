package yaml

import (
	"fmt"
	"sort"
	"strings"

	"github.com/plinth-iac/plinth/internal/program"
)

// nodeKind says what a graph node evaluates.
type nodeKind uint8

const (
	nodeResource nodeKind = iota
	nodeVariable
	nodeOutput
)

// node is something the evaluator resolves: a resource (registered), a
// variable or an output (computed). It runs once every node in deps has.
type node struct {
	kind       nodeKind
	name       string // as in messages and cycles: the key, or providers.PKG, outputs.NAME
	at         pos
	res        *resourceDecl
	val        *expr // variable or output
	deps       []int
	dependents []int
	// resDeps, for a variable, are the resource nodes its value depends on,
	// through other variables too.
	resDeps []int
	blocks  bool
}

// graph is the program's dependency graph.
type graph struct {
	nodes []*node
	// index maps the names a ${...} reference may start with (resources
	// and variables) to their node.
	index map[string]int
	// defaultProviders maps a package to its providers-block provider node.
	defaultProviders map[string]int
	// nsRefs are references to PKG:KEY config the program does not
	// declare; the stack's config must set them.
	nsRefs      []*ref
	outputNodes []int
}

// buildGraph makes the nodes, resolves every reference and checks for
// cycles, reporting problems to r.
func (p *Project) buildGraph(r *reader) {
	named := len(p.resources) + len(p.variables)
	p.index = make(map[string]int, named) // sized: a large program's grew through every size
	p.nodes = make([]*node, 0, named+len(p.outputs))
	p.defaultProviders = map[string]int{}
	p.addNodes(r)
	for i := range p.nodes {
		p.linkNode(r, i)
	}
	if r.list.HasErrors() {
		return
	}
	if p.checkCycles(r) {
		p.computeDeps()
	}
}

func (p *Project) addNodes(r *reader) {
	type urn struct{ token, name string }
	urns := make(map[urn]*resourceDecl, len(p.resources))
	for _, d := range p.resources {
		n := &node{kind: nodeResource, name: d.key, at: d.at, res: d}
		n.exprs(func(e *expr) { n.blocks = n.blocks || e.blocks() })
		if d.fromBlock {
			n.name = d.where
			p.defaultProviders[d.pkg] = len(p.nodes)
		} else if !p.claim(r, d.key, d.at, d.where) {
			continue
		}
		id := urn{d.token, d.name}
		if prev, dup := urns[id]; dup {
			r.errorf(d.at, d.where, "Duplicate resource", "%s and %s are both a %s named %q, so they would have the same URN. Give one a different name.", prev.where, d.where, d.token, d.name)
			continue
		}
		urns[id] = d
		p.add(n)
	}
	for _, v := range p.variables {
		if p.claim(r, v.name, v.at, joinPath("variables", v.name)) {
			p.add(&node{kind: nodeVariable, name: v.name, at: v.at, val: v.val, blocks: v.val.blocks()})
		}
	}
	for _, o := range p.outputs {
		p.outputNodes = append(p.outputNodes, len(p.nodes))
		p.nodes = append(p.nodes, &node{kind: nodeOutput, name: "outputs." + o.name, at: o.at, val: o.val, blocks: o.val.blocks()})
	}
}

// claim reserves a name a reference can use, reporting a clash.
func (p *Project) claim(r *reader, name string, at pos, where string) bool {
	if i, dup := p.index[name]; dup {
		r.errorf(at, where, "Duplicate name", "%q is already the name of %s at line %d; references could not tell them apart. Rename one.", name, p.describe(i), p.nodes[i].at.Line)
		return false
	}
	if _, dup := p.configByKey[name]; dup {
		r.errorf(at, where, "Duplicate name", "%q is already a config key; references could not tell them apart. Rename one.", name)
		return false
	}
	return true
}

func (p *Project) add(n *node) {
	p.index[n.name] = len(p.nodes)
	p.nodes = append(p.nodes, n)
}

func (p *Project) describe(i int) string {
	if p.nodes[i].kind == nodeVariable {
		return "a variable"
	}
	return "a resource"
}

// linkNode resolves the references of node i into dependency edges.
func (p *Project) linkNode(r *reader, i int) {
	n := p.nodes[i]
	deps := map[int]bool{}
	value := func(rf *ref) {
		if j, ok := p.resolveRef(r, rf); ok {
			deps[j] = true
		}
	}
	n.exprs(func(e *expr) {
		e.refs(value)
		e.invokes(func(spec *invokeSpec) { p.linkInvoke(r, spec, deps) })
	})
	if d := n.res; d != nil {
		p.linkOptions(r, d, deps)
	}
	delete(deps, -1)
	for j := range deps {
		n.deps = append(n.deps, j)
	}
	sort.Ints(n.deps)
	for _, j := range n.deps {
		p.nodes[j].dependents = append(p.nodes[j].dependents, i)
	}
}

// exprs calls f for each expression of the node.
func (n *node) exprs(f func(*expr)) {
	if n.val != nil {
		f(n.val)
	}
	if d := n.res; d != nil {
		for _, pr := range d.props {
			f(pr.val)
		}
		if d.get != nil && d.get.id != nil {
			f(d.get.id)
		}
		d.opts.eachExpr(f)
	}
}

// resolveRef finds the node a reference reads, or -1 for config. It
// reports a name that is neither.
func (p *Project) resolveRef(r *reader, rf *ref) (int, bool) {
	if key := p.normalizeKey(rf.root); key != rf.root && p.configByKey[key] != nil {
		rf.root = key
	}
	if j, ok := p.index[rf.root]; ok {
		return j, true
	}
	if _, ok := p.configByKey[rf.root]; ok {
		return -1, true
	}
	if strings.Contains(rf.root, ":") {
		p.nsRefs = append(p.nsRefs, rf)
		return -1, true
	}
	r.errorf(rf.at, rf.where, "Unknown reference",
		"%s refers to %q, which is not a resource, variable or config key of this program.%s Fix the name, or declare it.",
		rf.text, rf.root, suggest(rf.root, p.referenceable()))
	return 0, false
}

// referenceable lists every name a reference may use, for suggestions.
func (p *Project) referenceable() []string {
	names := make([]string, 0, len(p.index)+len(p.config))
	for n := range p.index {
		names = append(names, n)
	}
	for _, d := range p.config {
		names = append(names, d.Key)
	}
	sort.Strings(names)
	return names
}

// resourceNode resolves a dependsOn, parent or provider reference, which
// must name a resource.
func (p *Project) resourceNode(r *reader, rf *ref, what string) (int, bool) {
	j, ok := p.index[rf.root]
	if !ok || p.nodes[j].kind != nodeResource {
		r.errorf(rf.at, rf.where, "Unknown resource",
			"%s names %q, which is not a resource of this program.%s The %s option must name a resource declared under resources.",
			what, rf.root, suggest(rf.root, p.resourceNames()), what)
		return 0, false
	}
	return j, true
}

func (p *Project) resourceNames() []string {
	var names []string
	for name, j := range p.index {
		if p.nodes[j].kind == nodeResource {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// linkOptions resolves dependsOn, parent and provider, and the provider
// a resource gets from the providers block.
func (p *Project) linkOptions(r *reader, d *resourceDecl, deps map[int]bool) {
	for _, rf := range d.opts.dependsOn {
		if j, ok := p.resourceNode(r, rf, "dependsOn"); ok {
			deps[j] = true
		}
	}
	if rf := d.opts.parent; rf != nil {
		if j, ok := p.resourceNode(r, rf, "parent"); ok {
			deps[j] = true
		}
	}
	if d.component || program.IsProviderType(d.token) {
		p.checkNoProvider(r, d)
		return
	}
	if rf := d.opts.provider; rf != nil {
		if j, ok := p.providerNode(r, rf, d.pkg); ok {
			deps[j] = true
		}
	} else if j, ok := p.defaultProviders[d.pkg]; ok {
		deps[j] = true
	}
}

func (p *Project) checkNoProvider(r *reader, d *resourceDecl) {
	if rf := d.opts.provider; rf != nil {
		what := "A component"
		if !d.component {
			what = "A provider resource"
		}
		r.errorf(rf.at, rf.where, "Invalid option", "%s has no provider of its own; remove the provider option.", what)
	}
}

// providerNode resolves an explicit provider: a provider resource of the
// right package.
func (p *Project) providerNode(r *reader, rf *ref, pkg string) (int, bool) {
	j, ok := p.resourceNode(r, rf, "provider")
	if !ok {
		return 0, false
	}
	pd := p.nodes[j].res
	if !program.IsProviderType(pd.token) {
		r.errorf(rf.at, rf.where, "Not a provider", "provider names %q, a %s, which is not a provider resource. Name a resource of type pulumi:providers:%s.", rf.root, pd.token, pkg)
		return 0, false
	}
	if pd.pkg != pkg {
		r.errorf(rf.at, rf.where, "Wrong provider package", "provider names %q, a provider for package %q, but this needs a provider for package %q. Name a resource of type pulumi:providers:%s.", rf.root, pd.pkg, pkg, pkg)
		return 0, false
	}
	return j, true
}

// linkInvoke resolves the provider a function call uses.
func (p *Project) linkInvoke(r *reader, spec *invokeSpec, deps map[int]bool) {
	if spec.provider != nil {
		if j, ok := p.providerNode(r, spec.provider, spec.pkg); ok {
			deps[j] = true
		}
		return
	}
	if j, ok := p.defaultProviders[spec.pkg]; ok {
		deps[j] = true
	}
}

// checkCycles reports every dependency cycle, one per strongly connected
// component, as a -> b -> a. It returns true if there is none.
func (p *Project) checkCycles(r *reader) bool {
	for _, scc := range p.sccs() {
		if len(scc) == 1 && !contains1(p.nodes[scc[0]].deps, scc[0]) {
			continue
		}
		cycle := p.cyclePath(scc)
		names := make([]string, len(cycle))
		for i, j := range cycle {
			names[i] = p.nodes[j].name
		}
		first := p.nodes[cycle[0]]
		r.errorf(first.at, first.name, "Dependency cycle",
			"These depend on each other in a cycle: %s. Nothing in a cycle can be evaluated first; remove one of the references.",
			strings.Join(names, " -> "))
	}
	return !r.list.HasErrors()
}

func contains1(list []int, x int) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// sccs returns the strongly connected components (Tarjan's algorithm),
// iteratively so a long chain cannot exhaust the stack.
func (p *Project) sccs() [][]int {
	t := &tarjan{p: p, index: make([]int, len(p.nodes)), low: make([]int, len(p.nodes)), on: make([]bool, len(p.nodes))}
	for i := range t.index {
		t.index[i] = -1
	}
	for i := range p.nodes {
		if t.index[i] < 0 {
			t.visit(i)
		}
	}
	return t.out
}

type tarjan struct {
	p          *Project
	index, low []int
	on         []bool
	stack      []int
	next       int
	out        [][]int
}

type frame struct{ v, edge int }

func (t *tarjan) visit(root int) {
	calls := []frame{{v: root}}
	t.open(root)
	for len(calls) > 0 {
		f := &calls[len(calls)-1]
		deps := t.p.nodes[f.v].deps
		if f.edge < len(deps) {
			w := deps[f.edge]
			f.edge++
			if t.index[w] < 0 {
				t.open(w)
				calls = append(calls, frame{v: w})
			} else if t.on[w] {
				t.low[f.v] = min(t.low[f.v], t.index[w])
			}
			continue
		}
		calls = calls[:len(calls)-1]
		if len(calls) > 0 {
			parent := calls[len(calls)-1].v
			t.low[parent] = min(t.low[parent], t.low[f.v])
		}
		t.close(f.v)
	}
}

func (t *tarjan) open(v int) {
	t.index[v], t.low[v] = t.next, t.next
	t.next++
	t.stack = append(t.stack, v)
	t.on[v] = true
}

func (t *tarjan) close(v int) {
	if t.low[v] != t.index[v] {
		return
	}
	var scc []int
	for {
		w := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		t.on[w] = false
		scc = append(scc, w)
		if w == v {
			break
		}
	}
	sort.Ints(scc)
	t.out = append(t.out, scc)
}

// cyclePath finds a cycle through the component's first node, by a
// breadth-first search inside the component, and returns it closed:
// a, b, a.
func (p *Project) cyclePath(scc []int) []int {
	in := map[int]bool{}
	for _, v := range scc {
		in[v] = true
	}
	start := scc[0]
	prev := map[int]int{}
	queue := []int{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range p.nodes[v].deps {
			if w == start {
				return closeCycle(prev, start, v)
			}
			if _, seen := prev[w]; !seen && in[w] {
				prev[w] = v
				queue = append(queue, w)
			}
		}
	}
	return []int{start, start}
}

func closeCycle(prev map[int]int, start, last int) []int {
	path := []int{start}
	for v := last; v != start; v = prev[v] {
		path = append(path, v)
	}
	// path is start, then the chain back from last; reverse the chain.
	for i, j := 1, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return append(path, start)
}

// computeDeps fills each variable's resource dependencies, through other
// variables, and each resource's per-property dependencies. Nodes are
// visited in dependency order, so a variable's dependencies are done first.
func (p *Project) computeDeps() {
	for _, i := range p.topoOrder() {
		n := p.nodes[i]
		switch {
		case n.kind == nodeVariable:
			n.resDeps = p.exprResDeps(n.val)
		case n.res != nil:
			p.resourceDeps(n.res)
		}
	}
}

// topoOrder returns the nodes with every node after its dependencies.
func (p *Project) topoOrder() []int {
	waiting := make([]int, len(p.nodes))
	ready, order := make([]int, 0, len(p.nodes)), make([]int, 0, len(p.nodes))
	for i, n := range p.nodes {
		if waiting[i] = len(n.deps); waiting[i] == 0 {
			ready = append(ready, i)
		}
	}
	for len(ready) > 0 {
		i := ready[0]
		ready = ready[1:]
		order = append(order, i)
		for _, d := range p.nodes[i].dependents {
			if waiting[d]--; waiting[d] == 0 {
				ready = append(ready, d)
			}
		}
	}
	return order
}

// exprResDeps returns the resource nodes an expression's value depends on.
func (p *Project) exprResDeps(e *expr) []int {
	set := map[int]bool{}
	e.refs(func(rf *ref) {
		j, ok := p.index[rf.root]
		if !ok {
			return
		}
		if n := p.nodes[j]; n.kind == nodeResource {
			set[j] = true
		} else {
			for _, k := range n.resDeps {
				set[k] = true
			}
		}
	})
	return sortedKeys(set)
}

func (p *Project) resourceDeps(d *resourceDecl) {
	d.propDeps = nil // most resources have none: no map for them
	all := map[int]bool{}
	for _, pr := range d.props {
		deps := p.exprResDeps(pr.val)
		if len(deps) > 0 {
			if d.propDeps == nil {
				d.propDeps = map[string][]int{}
			}
			d.propDeps[pr.key] = deps
		}
		for _, j := range deps {
			all[j] = true
		}
	}
	exprs := d.opts.exprs()
	if d.get != nil {
		exprs = append(exprs, d.get.id)
	}
	for _, e := range exprs {
		if e != nil {
			for _, j := range p.exprResDeps(e) {
				all[j] = true
			}
		}
	}
	for _, rf := range d.opts.dependsOn {
		all[p.index[rf.root]] = true
	}
	d.allDeps = sortedKeys(all)
}

func sortedKeys(set map[int]bool) []int {
	out := make([]int, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// String renders a node for debugging.
func (n *node) String() string { return fmt.Sprintf("%s(%d deps)", n.name, len(n.deps)) }
