package hcl

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
)

// variable evaluates an input variable: the value given (on the command
// line, in files or the environment for the root module, by the module
// call otherwise), else its default; converted to its type, with
// optional attributes' defaults, and validated.
func (r *run) variable(n *node, inst *modInst) bool {
	v := n.variable
	val, rng, ok := r.variableValue(v, inst)
	if !ok {
		return false
	}
	if !v.ephemeral && hasEphemeral(val) {
		return r.fail(rng, "Ephemeral value not allowed",
			"The input variable %q does not accept ephemeral values. Declare it with ephemeral = true in %s, or pass a value that is not derived from an ephemeral resource.", v.name, v.rng.Filename)
	}
	if val.IsNull() && !v.nullable {
		if v.def == nil {
			return r.report(hcl.Diagnostics{nullRequired(v, inst, rng)})
		}
		val, _ = v.def.Value(nil)
	}
	if v.defaults != nil {
		val = v.defaults.Apply(val)
	}
	conv, err := convert.Convert(val, v.typ)
	if err != nil {
		return r.fail(rng, "Invalid value for input variable", "The given value is not suitable for var.%s declared at %s: %s.", v.name, v.rng, err)
	}
	if v.ephemeral {
		conv = conv.Mark(ephemeralMark)
	}
	if v.sensitive {
		conv = conv.Mark(sensitive)
	}
	ctx := r.evalCtx(inst)
	vars := ctx.Variables["var"].AsValueMap()
	if vars == nil {
		vars = map[string]cty.Value{}
	}
	vars[v.name] = conv
	ctx.Variables["var"] = cty.ObjectVal(vars)
	if !r.conditionsAt(ctx, v.validations, "Invalid value for variable", hcl.DiagError, atCall(inst, v.name, rng)) {
		return false
	}
	inst.set("var."+v.name, conv)
	return true
}

// atCall places a module variable's failed validation as terraform does:
// at the value the module call gives (rng), in the context of the module
// block, naming the validation rule that failed. Nil for the root module
// and a variable the call does not set, whose failed validations stay at
// their condition.
func atCall(inst *modInst, name string, rng hcl.Range) func(*condition, *hcl.Diagnostic) {
	if inst.call == nil || inst.call.args[name] == nil {
		return nil
	}
	return func(c *condition, d *hcl.Diagnostic) {
		at := rng
		d.Subject = &at
		d.Extra = diagContext(fmt.Sprintf("module %q", inst.call.name))
		d.Detail += fmt.Sprintf("\n\nThis was checked by the validation rule at %s.", c.rng)
	}
}

// nullRequired is terraform's error for null given to a variable that
// is not nullable and has no default, at the value given (the module
// call's argument, in the context of its block, or a root variable's
// file), naming the variable by its address and where it is declared,
// whether the null was known during the plan or only once applied.
func nullRequired(v *variable, inst *modInst, rng hcl.Range) *hcl.Diagnostic {
	d := errorAt(rng, "Required variable not set",
		"The given value is not suitable for %svar.%s defined at %s: required variable may not be set to null.", inst.prefix, v.name, v.rng)
	if inst.call != nil && inst.call.args[v.name] != nil {
		d.Extra = diagContext(fmt.Sprintf("module %q", inst.call.name))
	}
	return d
}

// variableValue finds the value given to a variable, and where.
func (r *run) variableValue(v *variable, inst *modInst) (cty.Value, hcl.Range, bool) {
	if inst.call == nil {
		if val, ok := r.inputs[v.name]; ok {
			return val, v.rng, true
		}
	} else if a, ok := inst.call.args[v.name]; ok {
		ctx := withInstance(r.evalCtx(inst.parent), inst.key, inst.each)
		val, ds := a.Expr.Value(ctx)
		return val, a.Expr.Range(), r.report(ds)
	}
	if v.def == nil {
		where := "Give it a value with -var, a .tfvars file or TF_VAR_" + v.name + ", or add a default to its declaration."
		if inst.call != nil {
			where = "Set it in the module block at " + inst.call.rng.String() + "."
		}
		return cty.NilVal, v.rng, r.fail(v.rng, "No value for required variable",
			"The input variable %q is not set, and has no default value. %s", v.name, where)
	}
	val, ds := v.def.Value(nil)
	return val, v.def.Range(), r.report(ds)
}

func (r *run) local(n *node, inst *modInst) bool {
	v, ds := n.local.Expr.Value(r.evalCtx(inst))
	if !r.report(ds) {
		return false
	}
	inst.set("local."+n.local.Name, v)
	return true
}

// output evaluates an output: its preconditions, then its value, which
// must be marked sensitive if it holds a sensitive value.
func (r *run) output(n *node, inst *modInst) bool {
	o := n.output
	ctx := r.evalCtx(inst)
	if !r.customConditions(ctx, o.preconditions, "Module output value precondition failed") {
		return false
	}
	v, ok := r.plannedOutput(inst.prefix + "output." + o.name)
	if !ok {
		var ds hcl.Diagnostics
		v, ds = o.value.Value(ctx)
		if !r.report(ds) {
			return false
		}
	}
	if !r.ephemeralOutput(o, inst, v) {
		return false
	}
	r.planOutput(inst.prefix+"output."+o.name, o, v)
	if o.sensitive {
		v = v.Mark(sensitive)
	} else if inst.call == nil && hasSensitive(v) {
		return r.fail(o.value.Range(), "Output refers to sensitive values",
			"To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, plinth requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true")
	}
	inst.set("output."+o.name, v)
	return true
}

// plannedOutput is the value a preview of this evaluator found for the
// output at addr, wholly known, for an update to keep (see
// Evaluator.planned); false in a preview, or where there is none.
func (r *run) plannedOutput(addr string) (cty.Value, bool) {
	if r.planning || r.planned == nil || r.opts.Destroy {
		return cty.NilVal, false
	}
	v, ok := r.planned.Load(addr)
	if !ok {
		return cty.NilVal, false
	}
	return v.(cty.Value), true
}

// planOutput records, in a preview, an output's value if it is wholly
// known and not ephemeral, for the update that follows.
func (r *run) planOutput(addr string, o *output, v cty.Value) {
	if !r.planning || r.planned == nil || o.ephemeral || !v.IsWhollyKnown() {
		return
	}
	r.planned.Store(addr, v)
}

func hasSensitive(v cty.Value) bool {
	_, pvm := v.UnmarkDeepWithPaths()
	for _, pm := range pvm {
		if _, ok := pm.Marks[sensitive]; ok {
			return true
		}
	}
	return false
}

// expandCall makes the instances of a module call in every instance of
// the calling module.
func (r *run) expandCall(n *node) bool {
	c := n.call
	if c.module == nil {
		return false
	}
	ok := true
	var made []*modInst
	for _, parent := range r.instancesOf(n.mod) {
		keys, good := r.expand(r.evalCtx(parent), c.count, c.forEach, "module")
		if !good {
			ok = false
			continue
		}
		if _, ok := r.overrides.Modules[OverrideAddr(parent.prefix+"module."+c.name)]; ok {
			r.mu.Lock()
			r.overridden[parent.prefix+"module."+c.name] = keys // nothing in it is evaluated
			r.mu.Unlock()
			continue
		}
		for _, k := range keys {
			made = append(made, r.childInstance(parent, c, k))
		}
	}
	r.mu.Lock()
	r.instances[c.module] = append(r.instances[c.module], made...)
	r.mu.Unlock()
	return ok
}

// childInstance makes one instance of a module: it inherits the calling
// instance's default providers, and those the call passes explicitly.
func (r *run) childInstance(parent *modInst, c *moduleCall, k instanceKey) *modInst {
	child := &modInst{mod: c.module, parent: parent, call: c, key: k.key, each: k.each,
		prefix: parent.prefix + "module." + c.name + k.suffix() + ".", providers: map[string]string{}, vals: map[string]cty.Value{}}
	if k.key == cty.NilVal {
		child.key = cty.NilVal
	} else if k.each == cty.NilVal {
		child.each = cty.NilVal
	}
	for key, ref := range parent.providers {
		if !strings.Contains(key, ".") {
			child.providers[key] = ref
		}
	}
	for to, from := range c.providers {
		if ref, ok := parent.providers[from]; ok {
			child.providers[to] = ref
		} else {
			delete(child.providers, to)
		}
	}
	return child
}

// moduleValue sets module.NAME in a calling instance: the outputs of
// each instance of the call, as an object, a tuple (count) or an object
// by key (for_each).
func (r *run) moduleValue(n *node, parent *modInst) {
	c := n.call
	var keys []instanceKey
	var vals []cty.Value
	if outs, ok := r.moduleOverride(parent, c); ok {
		r.mu.Lock()
		keys = r.overridden[parent.prefix+"module."+c.name]
		r.mu.Unlock()
		for range keys {
			vals = append(vals, outs)
		}
		parent.set("module."+c.name, collect(keys, vals, c.count != nil, c.forEach != nil))
		return
	}
	for _, child := range r.instancesOf(c.module) {
		if child.parent != parent || child.call != c {
			continue
		}
		outs := map[string]cty.Value{}
		for _, o := range c.module.outputs {
			if v, ok := child.get("output." + o.name); ok {
				outs[o.name] = v
			}
		}
		keys = append(keys, instanceKey{key: child.key, each: child.each})
		vals = append(vals, cty.ObjectVal(outs))
	}
	parent.set("module."+c.name, collect(keys, vals, c.count != nil, c.forEach != nil))
}

// providerNode registers a provider block as a provider resource in each
// instance of its module.
func (r *run) providerNode(n *node) bool {
	p := n.provider
	ok := true
	for _, inst := range r.instancesOf(n.mod) {
		vals, ds := evalBody(p.body, r.evalCtx(inst), metaArguments)
		if !r.report(ds) {
			ok = false
			continue
		}
		src, version := r.required(n.mod, p.name)
		reg := engine.Registration{Type: "pulumi:providers:" + p.name, Name: providerName(inst, p),
			Custom: true, Inputs: objectOf(vals), Version: version, PluginSource: src, EphemeralInputs: ephemeralKeys(vals)}
		res, err := engine.RegisterAndWait(r.ctx, r.mon, reg)
		if err != nil {
			ok = r.fail(p.rng, "Provider configuration failed", "The provider configuration %s failed: %s.", p.key(), err)
			continue
		}
		inst.mu.Lock()
		inst.providers[p.key()] = res.ProviderRef
		inst.mu.Unlock()
	}
	return ok
}

// providerName names a provider block's resource: the root module's
// block without an alias as the provider it stands for when absent (the
// default provider, "default" whatever the version constraint: Terraform
// sees both as one configuration, with one version, so a terraform.tfstate
// adopted names it so too), the others [module.NAME.]provider.TYPE[.ALIAS].
func providerName(inst *modInst, p *providerConfig) string {
	if inst.prefix == "" && p.alias == "" {
		return state.DefaultProviderName("")
	}
	return inst.prefix + "provider." + p.key()
}

// required finds the source of a provider's local name in a module or
// the modules above it, and the version constraint of that provider: every
// module's constraints on it joined (">= 3.0, ~> 3.6"), as Terraform uses
// one version per provider for the whole configuration.
func (r *run) required(m *Module, name string) (source, version string) {
	for ; m != nil; m = m.parent {
		if rp, ok := m.required[name]; ok {
			source = rp.source
			break
		}
	}
	if pc := r.c.constraints[providerAddress(source, name)]; pc != nil {
		version = pc.version
	}
	return source, version
}
