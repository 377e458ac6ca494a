package hcl

import (
	"fmt"
	"github.com/plinth-iac/plinth/internal/state"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// resource evaluates a resource, data or ephemeral block in every
// instance of its module: its instances are registered (or read) at once,
// and the block's value is set when all are done.
func (r *run) resource(n *node) bool {
	rc := n.resource
	deps, groups, pending := r.resourceDeps(n)
	refs, narrow := r.narrowRefs(n)
	nd := r.splitDeps(dependencies{deps, groups}, refs, narrow)
	ok := true
	for _, inst := range r.instancesOf(n.mod) {
		ctx := r.evalCtx(inst)
		keys, good := r.expand(ctx, rc.count, rc.forEach, "resource")
		if !good {
			ok = false
			continue
		}
		vals := make([]cty.Value, len(keys))
		var wg sync.WaitGroup
		var failed sync.Once
		instOK := true
		for i, k := range keys {
			ictx := withInstance(ctx, k.key, k.each)
			set := func(v cty.Value, err bool) {
				vals[i] = v
				if err {
					failed.Do(func() { instOK = false })
				}
				wg.Done()
			}
			wg.Add(1)
			if rc.mode == managed {
				r.registerInstance(n, inst, k, ictx, nd.forInstance(inst, ictx), set)
			} else {
				r.readInstance(n, inst, k, ictx, pending, set)
			}
		}
		wg.Wait()
		ok = ok && instOK
		if instOK {
			inst.set(rc.addr(), collect(keys, vals, rc.count != nil, rc.forEach != nil))
		}
	}
	return ok
}

// resourceDeps lists the URNs of the resources a node refers to, through
// any number of variables, locals and modules, and whether any is yet to
// be created or replaced. A counted or for_each resource whose instances
// share a group is listed by its group URN in groups (a resource-level
// dependency, as Terraform records it) rather than instance by instance.
func (r *run) resourceDeps(n *node) (urns, groups []resource.URN, pending bool) {
	seen := map[*node]bool{}
	var walk func(*node)
	walk = func(m *node) {
		for d := range m.deps {
			if seen[d] {
				continue
			}
			seen[d] = true
			if d.kind == kindResource && d.resource.mode == managed {
				insts := r.st[d.idx].urns
				if g, ok := groupOf(insts); ok {
					groups = append(groups, g)
				} else {
					urns = append(urns, insts...)
				}
				pending = pending || r.st[d.idx].pending
				continue
			}
			walk(d)
		}
	}
	walk(n)
	return urns, groups, pending
}

// dependencies are a resource's dependencies: instances, and groups of
// instances (counted or for_each resources) named by group URN.
type dependencies struct{ urns, groups []resource.URN }

// groupOf returns the group URN all of a resource's instances share, if
// they are instances of a counted or for_each resource.
func groupOf(insts []resource.URN) (resource.URN, bool) {
	if len(insts) == 0 {
		return "", false
	}
	g, ok := state.GroupOf(insts[0])
	for _, u := range insts[1:] {
		h, hok := state.GroupOf(u)
		ok = ok && hok && h == g
	}
	return g, ok
}

// registerInstance registers one managed resource instance; set gets its
// value when the engine is done with it.
func (r *run) registerInstance(n *node, inst *modInst, k instanceKey, ctx *hcl.EvalContext, deps dependencies, set func(cty.Value, bool)) {
	rc := n.resource
	if !r.customConditions(ctx, rc.lc.preconditions, "Resource precondition failed") {
		set(cty.NilVal, true)
		return
	}
	if r.refersToAbsent(n, rc, ctx) {
		set(cty.DynamicVal, false)
		return
	}
	vals, ok := r.resourceArgs(rc, ctx)
	if !ok {
		set(cty.NilVal, true)
		return
	}
	inputs := objectOf(vals)
	reg, ok := r.registration(n, inst, k, inputs, deps)
	if ok {
		reg.IgnoreChanges = r.ignorePaths(rc, vals, inputs)
		reg.InputTypes = dynamicTypes(vals, r.argSchemas[rc])
	}
	if ok {
		reg.ForceReplace, ok = r.triggered(rc, inst, ctx)
	}
	if ok {
		reg.Provisioners, ok = r.provisioners(rc, ctx)
	}
	if !ok {
		set(cty.NilVal, true)
		return
	}
	r.mon.Register(reg, func(res engine.Registered, err error) {
		if err != nil {
			r.report(hcl.Diagnostics{errorAt(rc.rng, "Resource failed", "%s failed: %s.", reg.Name, err)})
			set(cty.NilVal, true)
			return
		}
		r.recordOutcome(res)
		st := r.st[n.idx]
		r.mu.Lock()
		st.urns = append(st.urns, res.URN)
		st.pending = st.pending || res.ID.ContainsUnknowns()
		st.absent = st.absent || res.Absent
		r.mu.Unlock()
		if res.Absent {
			set(cty.NilVal, false) // left out of the resource's value
			return
		}
		v := typedObject(resultMarks(resourceOutputs(res), r.resultSchemas[rc], reg.Inputs), r.resultSchemas[rc])
		v = argTyped(v, rc.typ, vals)
		// A resource outside the targets (--target) was left alone: as
		// terraform, which leaves it out of the run, check nothing of it.
		set(v, !leftAlone(res) && !r.postconditions(rc, ctx, v))
	})
}

// refersToAbsent reports whether a resource instance's arguments cannot
// be evaluated because they name an instance that a targeted run
// (--target) leaves out and that does not exist (aws_x.y[1] when only
// aws_x.y[0] is targeted and created). Such a resource is outside the
// targets too (targets take in what they refer to), and terraform does
// not evaluate it: it is not registered, the engine keeps its record as
// it is, and its value is unknown.
func (r *run) refersToAbsent(n *node, rc *resourceConfig, ctx *hcl.EvalContext) bool {
	if !r.dependsOnAbsent(n) {
		return false
	}
	_, ds := evalBody(rc.body, ctx, metaArguments)
	return ds.HasErrors()
}

// dependsOnAbsent reports whether a node refers, through any number of
// variables, locals and modules, to a resource with an absent instance.
func (r *run) dependsOnAbsent(n *node) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := map[*node]bool{}
	var walk func(*node) bool
	walk = func(m *node) bool {
		for d := range m.deps {
			if seen[d] {
				continue
			}
			seen[d] = true
			if d.kind == kindResource {
				if r.st[d.idx].absent {
					return true
				}
				continue
			}
			if walk(d) {
				return true
			}
		}
		return false
	}
	return walk(n)
}

// leftAlone reports whether the engine left a registered resource alone
// because it is outside the operation's targets.
func leftAlone(res engine.Registered) bool { return res.Custom && res.Op == "" }

// postconditions checks a resource's or data source's postconditions
// against its value, self; it reports whether they all hold.
func (r *run) postconditions(rc *resourceConfig, ctx *hcl.EvalContext, self cty.Value) bool {
	if len(rc.lc.postconditions) == 0 {
		return true
	}
	pctx := ctx.NewChild()
	pctx.Variables = map[string]cty.Value{"self": self}
	return r.customConditions(pctx, rc.lc.postconditions, "Resource postcondition failed")
}

// resourceOutputs are a registered resource's outputs, with id.
func resourceOutputs(res engine.Registered) resource.Object {
	o := res.Outputs.Copy()
	if o == nil {
		o = resource.Object{}
	}
	if _, ok := o["id"]; !ok {
		o["id"] = res.ID
	}
	return o
}

// registration builds the engine's request for a resource instance.
func (r *run) registration(n *node, inst *modInst, k instanceKey, inputs resource.Object, deps dependencies) (engine.Registration, bool) {
	rc := n.resource
	token, pkg, err := typeToken(rc.typ)
	if err != nil {
		return engine.Registration{}, r.fail(rc.rng, "Invalid resource type", "%s.", err)
	}
	reg := engine.Registration{Type: token, Name: inst.prefix + rc.addr() + k.suffix(), Custom: true,
		Inputs: inputs, Dependencies: deps.urns, DependencyGroups: deps.groups, Protect: rc.lc.preventDestroy,
		CreateBeforeDestroy: rc.lc.createBeforeDestroy, ReplaceOnlySelf: true}
	if !r.providerFor(n, inst, pkg, &reg) || !r.moveAliases(n, inst, k, &reg) || !r.importID(n, inst, &reg) {
		return reg, false
	}
	return reg, true
}

// ignorePaths are the property paths ignore_changes names, as terraform
// applies them: a trailing string index ignores one key of a map, but
// of an object (terraform_data's input given an object, an object-typed
// argument) it ignores the whole object, changes to other keys included.
func (r *run) ignorePaths(rc *resourceConfig, vals map[string]cty.Value, inputs resource.Object) []string {
	if rc.lc.ignoreAll {
		return inputs.Keys()
	}
	var paths []string
	for _, t := range rc.lc.ignoreChanges {
		last, ok := t[len(t)-1].(hcl.TraverseIndex)
		if ok && len(t) > 1 && last.Key.Type() == cty.String && objectAt(t[:len(t)-1], r.argSchemas[rc], vals) {
			t = t[:len(t)-1]
		}
		paths = append(paths, traversalPath(t))
	}
	return paths
}

// objectAt reports whether the argument value at path, converted to the
// type the provider's schema gives the argument, is an object rather
// than a map. Without a schema for the argument it cannot tell, and
// reports false.
func objectAt(path hcl.Traversal, props map[string]schema.Property, vals map[string]cty.Value) bool {
	v, ok := vals[path.RootName()]
	p, known := props[path.RootName()]
	if !ok || !known {
		return false
	}
	v, _ = v.UnmarkDeep()
	if ty, ok := ctyType(p.Type); ok {
		cv, err := convert.Convert(v, ty)
		if err != nil {
			return false
		}
		v = cv
	}
	if len(path) > 1 {
		sub, ds := path[1:].TraverseRel(v)
		if ds.HasErrors() {
			return false
		}
		v = sub
	}
	return v.Type().IsObjectType()
}

// providerFor sets the provider of a registration: the configuration the
// provider meta-argument names, the module's configuration for the
// type's provider, or the default provider.
func (r *run) providerFor(n *node, inst *modInst, pkg string, reg *engine.Registration) bool {
	rc := n.resource
	key := rc.provider
	if key == "" {
		key = pkg
	}
	local, _, _ := strings.Cut(key, ".")
	inst.mu.Lock()
	ref, ok := inst.providers[key]
	inst.mu.Unlock()
	if ok {
		reg.Provider = ref
		return true
	}
	if strings.Contains(key, ".") {
		return r.fail(rc.providerRange, "Provider configuration not present",
			"There is no configuration for provider %s in %s. Add a provider %q block with alias = %q, or pass it to the module with providers = { %s = ... }.",
			key, moduleName(n.mod), local, key[len(local)+1:], key)
	}
	reg.PluginSource, reg.Version = r.required(n.mod, local)
	return true
}

// traversalPath writes an ignore_changes reference as a property path.
func traversalPath(t hcl.Traversal) string {
	var b strings.Builder
	b.WriteString(t.RootName())
	for _, step := range t[1:] {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			if s.Key.Type() == cty.String {
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			} else if s.Key.Type() == cty.Number {
				b.WriteString("[" + s.Key.AsBigFloat().Text('f', -1) + "]")
			}
		}
	}
	return b.String()
}

// readInstance reads a data source (or opens an ephemeral resource)
// instance: during the plan when its arguments are known and nothing it
// depends on is yet to be created, else its value is unknown until then.
func (r *run) readInstance(n *node, inst *modInst, k instanceKey, ctx *hcl.EvalContext, pending bool, set func(cty.Value, bool)) {
	rc := n.resource
	if !r.customConditions(ctx, rc.lc.preconditions, "Resource precondition failed") {
		set(cty.NilVal, true)
		return
	}
	args, ok := r.resourceBody(rc, ctx)
	if !ok {
		set(cty.NilVal, true)
		return
	}
	if v, ok := r.dataOverride(inst, rc, k, args); ok {
		set(v, !r.postconditions(rc, ctx, v))
		return
	}
	token, pkg, err := typeToken(rc.typ)
	if unknown := resource.NewObject(args).ContainsUnknowns(); pending || unknown {
		if rc.mode == ephemeral {
			set(cty.DynamicVal.Mark(ephemeralMark), false)
			return
		}
		if r.opts.DeferredRead != nil && rc.mode == dataMode {
			reason := program.ReadConfigUnknown
			if !unknown {
				reason = program.ReadDependencyPending
			}
			r.opts.DeferredRead(program.DeferredRead{Address: inst.prefix + rc.addr() + k.suffix(), Type: token, Args: r.withComputed(rc, args), Reason: reason})
		}
		set(cty.DynamicVal, false)
		return
	}
	if err != nil {
		set(cty.NilVal, r.fail(rc.rng, "Invalid data source type", "%s.", err) && false)
		return
	}
	var reg engine.Registration
	if !r.providerFor(n, inst, pkg, &reg) {
		set(cty.NilVal, true)
		return
	}
	if rc.mode == ephemeral {
		go r.openInstance(n, inst, k, reg, token, args, set)
		return
	}
	go func() {
		addr := inst.prefix + rc.addr() + k.suffix()
		start := r.readingStarts(addr, token, false)
		plain, _ := resource.NewObject(args).Unsecret()
		res, err := r.mon.Invoke(r.ctx, engine.InvokeRequest{Token: token, Args: plain.Object(), Provider: reg.Provider, Version: reg.Version})
		if err != nil && rc.check != nil {
			set(r.scopedFailed(rc, inst, k, token, args, err), false)
			return
		}
		if err != nil {
			summary, detail := readFailure(addr, token, err)
			r.fail(rc.rng, summary, "%s", detail)
			set(cty.NilVal, true)
			return
		}
		res = resultMarks(res, r.resultSchemas[rc], args)
		r.readingDone(addr, token, false, start, res)
		if rc.check != nil {
			r.scopedRead(rc, inst, k, token, r.secretAttrs(rc, res))
		}
		v := typedObject(res, r.resultSchemas[rc])
		set(v, !r.postconditions(rc, ctx, v))
	}()
}

func evalBody(b hcl.Body, ctx *hcl.EvalContext, skip map[string]bool) (map[string]cty.Value, hcl.Diagnostics) {
	sb, ok := b.(*hclsyntax.Body)
	if !ok {
		return evalJSONBody(b, ctx, skip)
	}
	out := map[string]cty.Value{}
	var diags hcl.Diagnostics
	for name, a := range sb.Attributes {
		if skip[name] {
			continue
		}
		v, ds := a.Expr.Value(ctx)
		diags = append(diags, ds...)
		out[name] = v
	}
	blocks := map[string][]cty.Value{}
	unknown := map[string]bool{}
	for _, blk := range sb.Blocks {
		if skip[blk.Type] {
			continue
		}
		if blk.Type == "dynamic" {
			diags = append(diags, expandDynamic(blk, ctx, blocks, unknown)...)
			continue
		}
		v, ds := evalBody(blk.Body, ctx, nil)
		diags = append(diags, ds...)
		blocks[blk.Type] = append(blocks[blk.Type], cty.ObjectVal(v))
	}
	for name, list := range blocks {
		out[name] = cty.TupleVal(list)
	}
	for name := range unknown {
		out[name] = cty.DynamicVal
	}
	return out, diags
}

// evalJSONBody evaluates a JSON body's attributes; nested blocks are
// JSON objects and arrays already.
func evalJSONBody(b hcl.Body, ctx *hcl.EvalContext, skip map[string]bool) (map[string]cty.Value, hcl.Diagnostics) {
	attrs, diags := b.JustAttributes()
	out := map[string]cty.Value{}
	for name, a := range attrs {
		if skip[name] {
			continue
		}
		v, ds := a.Expr.Value(ctx)
		diags = append(diags, ds...)
		out[name] = v
	}
	return out, diags
}

// expandDynamic expands a dynamic block into blocks of its label's type.
func expandDynamic(blk *hclsyntax.Block, ctx *hcl.EvalContext, blocks map[string][]cty.Value, unknown map[string]bool) hcl.Diagnostics {
	if len(blk.Labels) != 1 {
		return hcl.Diagnostics{errorAt(blk.TypeRange, "Invalid dynamic block", "A dynamic block needs one label: the type of the blocks it makes, as in dynamic \"setting\" { ... }.")}
	}
	label := blk.Labels[0]
	fe, ok := blk.Body.Attributes["for_each"]
	if !ok {
		return hcl.Diagnostics{errorAt(blk.TypeRange, "Missing for_each in dynamic block", "A dynamic block needs a for_each argument: the collection to make a block for each element of.")}
	}
	iter := label
	if it, ok := blk.Body.Attributes["iterator"]; ok {
		iter = hcl.ExprAsKeyword(it.Expr)
	}
	var content *hclsyntax.Block
	for _, c := range blk.Body.Blocks {
		if c.Type == "content" {
			content = c
		}
	}
	if content == nil {
		return hcl.Diagnostics{errorAt(blk.TypeRange, "Missing content block", "A dynamic block needs a content block: the body of each block it makes.")}
	}
	coll, diags := fe.Expr.Value(ctx)
	if diags.HasErrors() {
		return diags
	}
	coll, marks := coll.Unmark()
	if !coll.IsKnown() {
		unknown[label] = true
		return diags
	}
	if coll.IsNull() || !coll.CanIterateElements() {
		return append(diags, errorAt(fe.Expr.Range(), "Invalid dynamic for_each value", "Cannot use a %s value in for_each. An iterable collection is required.", coll.Type().FriendlyName()))
	}
	if _, ok := blocks[label]; !ok {
		blocks[label] = []cty.Value{}
	}
	for it := coll.ElementIterator(); it.Next(); {
		k, v := it.Element()
		child := ctx.NewChild()
		child.Variables = map[string]cty.Value{iter: cty.ObjectVal(map[string]cty.Value{"key": k, "value": v.WithMarks(marks)})}
		vals, ds := evalBody(content.Body, child, nil)
		diags = append(diags, ds...)
		blocks[label] = append(blocks[label], cty.ObjectVal(vals))
	}
	return diags
}

// openInstance opens an ephemeral resource instance.
func (r *run) openInstance(n *node, inst *modInst, k instanceKey, reg engine.Registration, token string, args resource.Object, set func(cty.Value, bool)) {
	rc := n.resource
	addr := inst.prefix + rc.addr() + k.suffix()
	start := r.readingStarts(addr, token, true)
	plain, _ := resource.NewObject(args).Unsecret()
	v, err := r.openEphemeral(engine.InvokeRequest{Token: token, Args: plain.Object(), Provider: reg.Provider, Version: reg.Version}, args)
	if err != nil {
		r.fail(rc.rng, "Failed to open ephemeral resource", "Opening %s failed: %s.", addr, err)
		set(cty.NilVal, true)
		return
	}
	r.readingDone(addr, token, true, start, nil)
	set(v, false)
}

// typeToken is the engine's token for a resource, data source or
// ephemeral resource type, and its provider's package: random_pet is
// random:index:random_pet of random. A type named like its provider
// (the external and http providers' data sources) is its own package,
// external:index:external, as terraform takes a type's provider from
// the name before its first underscore, or the whole name.
func typeToken(typ string) (token, pkg string, err error) {
	if !strings.Contains(typ, "_") && program.IsPackageName(typ) {
		return typ + ":index:" + typ, typ, nil
	}
	return program.NormalizeType(typ)
}
