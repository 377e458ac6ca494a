package hcl

import (
	"errors"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program/hcl/funcs"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// ephemeralMark is the cty mark of a value from an ephemeral resource or
// an ephemeral variable: it may reach provider configuration, locals and
// other ephemeral resources, never a resource's arguments, the state or
// the display.
const ephemeralMark = funcs.Ephemeral

// hasEphemeral reports whether any part of v is ephemeral.
func hasEphemeral(v cty.Value) bool { return hasMark(v, ephemeralMark) }

// resourceBody evaluates the body of a resource, data or ephemeral block.
// Only an ephemeral block's arguments may hold ephemeral values: what a
// managed resource or a data source is given is recorded in the state.
func (r *run) resourceBody(rc *resourceConfig, ctx *hcl.EvalContext) (resource.Object, bool) {
	vals, ok := r.resourceArgs(rc, ctx)
	if vals == nil {
		return nil, false
	}
	return objectOf(vals), ok
}

// resourceArgs evaluates and checks the arguments of a resource, data or
// ephemeral block; they are nil if the body could not be evaluated.
func (r *run) resourceArgs(rc *resourceConfig, ctx *hcl.EvalContext) (map[string]cty.Value, bool) {
	vals, ds := evalBody(rc.body, ctx, metaArguments)
	if !r.report(ds) {
		return nil, false
	}
	if rc.mode == ephemeral {
		return vals, true
	}
	ok := r.checkValues(rc, vals)
	for name, v := range vals {
		if hasEphemeral(v) {
			ok = r.fail(argRange(rc, name), "Ephemeral value not allowed",
				"The argument %q of %s is derived from an ephemeral value. Ephemeral values are not valid in resource arguments, because resource instances must persist between runs, and plinth never records an ephemeral value in the state. Use it in provider configuration, a local value or another ephemeral resource instead, or drop it with ephemeralasnull(...).",
				name, rc.addr()) && ok
		}
	}
	return vals, ok
}

// argRange is where an argument of a block is set, or the block itself.
func argRange(rc *resourceConfig, name string) hcl.Range {
	if sb, ok := rc.body.(*hclsyntax.Body); ok {
		if a, ok := sb.Attributes[name]; ok {
			return a.SrcRange
		}
	}
	return rc.rng
}

// ephemeralOutput checks an output against the ephemeral values it holds:
// a module output declared ephemeral passes them on, marked; any other
// output must hold none, and a root module output cannot be ephemeral.
func (r *run) ephemeralOutput(o *output, inst *modInst, v cty.Value) bool {
	switch {
	case o.ephemeral && inst.call == nil:
		return r.fail(o.rng, "Ephemeral output not allowed",
			"The root module's outputs are recorded in the state, so output %q cannot be ephemeral. Remove ephemeral = true, and leave ephemeral values out of its value (ephemeralasnull(...) drops them).", o.name)
	case !o.ephemeral && hasEphemeral(v):
		return r.fail(o.value.Range(), "Ephemeral value not allowed",
			"The output %q is not declared as returning an ephemeral value, so it cannot be set to a result derived from an ephemeral value. In a child module, add ephemeral = true to the output; in the root module, leave the ephemeral value out (ephemeralasnull(...) drops it).", o.name)
	}
	return true
}

// openEphemeral opens an ephemeral resource instance through the engine;
// its value is marked ephemeral, and secret where args are (the
// arguments as the configuration gave them, secrets included; req.Args
// are the same made plain). The engine closes it when the operation
// ends, after the deletes that may need a provider it configured.
func (r *run) openEphemeral(req engine.InvokeRequest, args resource.Object) (cty.Value, error) {
	opener, ok := r.mon.(engine.EphemeralOpener)
	if !ok {
		return cty.NilVal, errors.New("this engine cannot open ephemeral resources")
	}
	res, _, err := opener.OpenEphemeral(r.ctx, req)
	if err != nil {
		return cty.NilVal, err
	}
	return objectToCty(keepSecretPaths(res, args)).Mark(ephemeralMark), nil
}

// ephemeralKeys names the arguments that hold ephemeral values, sorted:
// a provider is configured with them, and the engine records none.
func ephemeralKeys(vals map[string]cty.Value) []string {
	var keys []string
	for k, v := range vals {
		if hasEphemeral(v) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
