package hcl

import (
	"encoding/json"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// typedObject is objectToCty for a resource's or data source's value,
// with each attribute whose schema type is a list or a map of a primitive
// converted to that type, as terraform types the value by its schema:
// random_id's keepers is a map(string), tls_self_signed_cert's dns_names
// a list(string) and its subject blocks a list(object({...})), not an
// object and tuples. So an output of one has terraform's type, which the
// state records for an export. An attribute of another schema type
// (plinth's schemas do not tell a set from a list), or whose value does
// not convert, keeps its natural type. An attribute of the schema that o
// lacks (a provider leaves a null result out: the built-in
// terraform_data's output when its input is null) is null, as terraform
// has every attribute of the schema in a resource's value, so
// terraform_data.d.output is null, not "Unsupported attribute".
func typedObject(o resource.Object, props map[string]schema.Property) cty.Value {
	attrs := make(map[string]cty.Value, len(o))
	for k, e := range o {
		attrs[k] = typedAttr(toCty(e), props[k].Type)
	}
	for k, p := range props {
		if _, ok := attrs[k]; ok {
			continue
		}
		ty, ok := ctyType(p.Type)
		if !ok {
			ty = cty.DynamicPseudoType
		}
		attrs[k] = cty.NullVal(ty)
	}
	return cty.ObjectVal(attrs)
}

// typedAttr converts v to the list or map type t, if it is one and v
// converts; an unknown v gets any type t names, so that a value known
// after apply is still a string (or number, bool, list, map) in a
// preview, as in a terraform plan: random_string.result != {} is known
// to be true, where an unknown of no type would make it unknown.
func typedAttr(v cty.Value, t schema.Type) cty.Value {
	collection := t.Kind == schema.TypeArray || t.Kind == schema.TypeMap
	if !collection && v.IsKnown() {
		return v
	}
	ty, ok := ctyType(t)
	if !ok && collection && v.IsKnown() {
		ty, ok = blockType(t)
	}
	if !ok {
		return v
	}
	c, err := convert.Convert(v, ty)
	if err != nil {
		return v
	}
	return c
}

// blockType is the cty type of a list or map of objects (nested blocks,
// or attributes of a nested object type) whose attributes all have a
// type the schema tells: an object's attribute of dynamic type is
// cty.DynamicPseudoType, which keeps the value's own type. Every
// attribute is optional, so that converting to the type sets those a
// value leaves out (plinth's values drop nulls) to null. False where
// some part has no such type (a tuple, an object without properties
// known, a dynamic element).
func blockType(t schema.Type) (cty.Type, bool) {
	switch t.Kind {
	case schema.TypeArray, schema.TypeMap:
		if t.Elem == nil {
			return cty.NilType, false
		}
		et, ok := blockType(*t.Elem)
		if !ok {
			return cty.NilType, false
		}
		if t.Kind == schema.TypeMap {
			return cty.Map(et), true
		}
		return cty.List(et), true
	case schema.TypeObject:
		attrs := make(map[string]cty.Type, len(t.Properties))
		names := make([]string, 0, len(t.Properties))
		for name, p := range t.Properties {
			names = append(names, name)
			if p.Type.Kind == schema.TypeAny {
				attrs[name] = cty.DynamicPseudoType
				continue
			}
			at, ok := blockType(p.Type)
			if !ok {
				return cty.NilType, false
			}
			attrs[name] = at
		}
		return cty.ObjectWithOptionalAttrs(attrs, names), true
	}
	return ctyType(t)
}

// dynamicTypes are the Terraform types of the known, non-null arguments
// that the schema gives dynamic type (terraform_data's input and
// triggers_replace), by name, for the state (engine.Registration's
// InputTypes): terraform records such a value with its type, and
// cidrsubnets(...) is a list(string) where the value alone reads as a
// tuple. Nil if there are none.
func dynamicTypes(vals map[string]cty.Value, props map[string]schema.Property) map[string]json.RawMessage {
	var out map[string]json.RawMessage
	for name, v := range vals {
		if p, ok := props[name]; !ok || p.Type.Kind != schema.TypeAny || v.IsNull() || !v.IsWhollyKnown() {
			continue
		}
		ty, err := ctyjson.MarshalType(v.Type())
		if err != nil {
			continue
		}
		if out == nil {
			out = map[string]json.RawMessage{}
		}
		out[name] = ty
	}
	return out
}

// resultFrom names, by resource type, the result attributes of dynamic
// type that are set from an argument, and that argument:
// terraform_data's input and triggers_replace are its arguments, and its
// output is its input.
var resultFrom = map[string]map[string]string{
	"terraform_data": {"input": "input", "triggers_replace": "triggers_replace", "output": "input"},
}

// argTyped gives the dynamic attributes of a resource's value v the
// types of the arguments they are set from (resultFrom), as terraform
// has them: terraform_data's output, given cidrsubnets(...) as input, is
// a list(string), where plinth's value alone would read as a tuple.
func argTyped(v cty.Value, typ string, args map[string]cty.Value) cty.Value {
	from := resultFrom[typ]
	if len(from) == 0 || v.IsMarked() || !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() {
		return v
	}
	var attrs map[string]cty.Value // v's, copied once an attribute is converted
	for name, argName := range from {
		arg, given := args[argName]
		if !given || arg.IsNull() || !arg.IsWhollyKnown() || !v.Type().HasAttribute(name) {
			continue
		}
		cur := v.GetAttr(name)
		if cur.Type().Equals(arg.Type()) {
			continue // typed already
		}
		if c, err := convert.Convert(cur, arg.Type()); err == nil {
			if attrs == nil {
				attrs = v.AsValueMap()
			}
			attrs[name] = c
		}
	}
	if attrs == nil {
		return v
	}
	return cty.ObjectVal(attrs)
}
