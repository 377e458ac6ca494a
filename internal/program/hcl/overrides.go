package hcl

import (
	"math/rand/v2"
	"regexp"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Overrides replace data sources and module calls by fixed values in a
// run of plinth test: terraform test's override_data and
// override_module. Nothing overridden is read or evaluated.
type Overrides struct {
	// Data are the values of overridden data sources by address
	// (data.TYPE.NAME, module.a.data.TYPE.NAME: every instance alike; or
	// one instance, data.TYPE.NAME["k"], which wins).
	// Configured arguments keep their values; an attribute neither
	// configured nor given here is generated (MockValue).
	Data map[string]resource.Object
	// Modules are the outputs of overridden module calls by address
	// (module.a, module.a.module.b), every instance alike; an output not
	// given is null. Nothing in the module is evaluated.
	Modules map[string]resource.Object
}

// WithOverrides is the evaluator with data sources and module calls
// overridden.
func (ev *Evaluator) WithOverrides(o Overrides) *Evaluator {
	c := *ev
	c.overrides = o
	return &c
}

var instanceKeys = regexp.MustCompile(`\[[^\]]*\]`)

// ReferenceAddr is a reference as an address: aws_s3_bucket.b[0],
// data.t.n["k"], module.a.
func ReferenceAddr(t hcl.Traversal) string { return traversalPath(t) }

// OverrideAddr is an address as override blocks name it: without
// instance keys (module.a["x"].data.t.n is module.a.data.t.n).
func OverrideAddr(addr string) string { return instanceKeys.ReplaceAllString(addr, "") }

// dataOverride is the value of an overridden data source instance:
// its configured arguments, the override's values, and generated values
// for the rest of its schema's attributes.
func (r *run) dataOverride(inst *modInst, rc *resourceConfig, k instanceKey, args resource.Object) (cty.Value, bool) {
	given, ok := r.overrides.Data[inst.prefix+rc.addr()+k.suffix()]
	if !ok {
		given, ok = r.overrides.Data[OverrideAddr(inst.prefix+rc.addr())]
	}
	if !ok {
		return cty.NilVal, false
	}
	out := args.Copy()
	for name, v := range given {
		if cur, ok := out[name]; !ok || cur.IsNull() {
			out[name] = v
		}
	}
	ins := r.argSchemas[rc]
	for name, p := range r.resultSchemas[rc] {
		if cur := out[name]; cur.IsNull() {
			out[name] = resource.Null()
			if in, settable := ins[name]; !settable || in.Computed {
				out[name] = MockValue(p.Type) // computed: generated
			}
		}
	}
	return typedObject(out, r.resultSchemas[rc]), true
}

// moduleOverride is the outputs of an overridden module call, if it is
// overridden: those given, the others null.
func (r *run) moduleOverride(parent *modInst, c *moduleCall) (cty.Value, bool) {
	given, ok := r.overrides.Modules[OverrideAddr(parent.prefix+"module."+c.name)]
	if !ok {
		return cty.NilVal, false
	}
	outs := map[string]cty.Value{}
	for _, o := range c.module.outputs {
		outs[o.name] = cty.NullVal(cty.DynamicPseudoType)
		if v, ok := given[o.name]; ok {
			outs[o.name] = toCty(v)
		}
	}
	return cty.ObjectVal(outs), true
}

// MockValue is a value of a type for an attribute that a mock or an
// override does not give, as terraform test generates it: a string of 8
// random letters and digits, 0, false, an empty collection, an object
// of generated attributes.
func MockValue(t schema.Type) resource.Value {
	switch t.Kind {
	case schema.TypeString:
		const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
		b := make([]byte, 8)
		for i := range b {
			b[i] = letters[rand.IntN(len(letters))]
		}
		return resource.NewString(string(b))
	case schema.TypeNumber, schema.TypeInteger:
		return resource.NewNumber(0)
	case schema.TypeBool:
		return resource.NewBool(false)
	case schema.TypeArray:
		return resource.NewArray()
	case schema.TypeMap:
		return resource.NewObject(resource.Object{})
	case schema.TypeObject:
		o := resource.Object{}
		for k, p := range t.Properties {
			o[k] = MockValue(p.Type)
		}
		return resource.NewObject(o)
	}
	return resource.Null()
}
