package tfplugin

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestRawEquals: rawEquals answers as cty's RawEquals for every pair of a
// set of values that covers each of its cases (nulls, unknowns and
// refined unknowns, marks at the top and inside, strings, bools,
// numbers, objects, collections, dynamic attributes) and its neighbours.
func TestRawEquals(t *testing.T) {
	obj := func(name cty.Value, n int64, tags cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"name": name, "n": cty.NumberIntVal(n), "tags": tags})
	}
	tags := cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1")})
	values := []cty.Value{
		cty.StringVal("a"), cty.StringVal("b"), cty.StringVal(""), cty.NullVal(cty.String), cty.UnknownVal(cty.String),
		cty.UnknownVal(cty.String).RefineNotNull(), cty.StringVal("a").Mark("sensitive"),
		cty.True, cty.False, cty.NullVal(cty.Bool),
		cty.NumberIntVal(2), cty.NumberFloatVal(2.0), cty.NumberFloatVal(2.5), cty.MustParseNumberVal("2.50"),
		cty.DynamicVal, cty.NullVal(cty.DynamicPseudoType),
		obj(cty.StringVal("a"), 1, tags), obj(cty.StringVal("a"), 1, cty.NullVal(tags.Type())), obj(cty.StringVal("b"), 1, tags),
		obj(cty.StringVal("a"), 2, tags), obj(cty.UnknownVal(cty.String), 1, tags), obj(cty.StringVal("a").Mark("sensitive"), 1, tags),
		obj(cty.StringVal("a"), 1, cty.MapVal(map[string]cty.Value{"a": cty.StringVal("2")})),
		cty.NullVal(obj(cty.StringVal("a"), 1, tags).Type()), cty.UnknownVal(obj(cty.StringVal("a"), 1, tags).Type()),
		cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("a")}),
		cty.ObjectVal(map[string]cty.Value{"d": cty.StringVal("a")}), cty.ObjectVal(map[string]cty.Value{"d": cty.NumberIntVal(1)}),
		cty.ListVal([]cty.Value{cty.StringVal("a")}), cty.ListVal([]cty.Value{cty.StringVal("b")}),
		cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), cty.SetVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a")}),
		cty.EmptyObjectVal, cty.NullVal(cty.EmptyObject),
	}
	for i, a := range values {
		for j, b := range values {
			// Each value against itself and a copy, and every other.
			for _, other := range []cty.Value{b, copyValue(b)} {
				if got, want := rawEquals(a, other), a.RawEquals(other); got != want {
					t.Errorf("rawEquals(%d: %#v, %d: %#v) = %v, want %v", i, a, j, other, got, want)
				}
			}
		}
	}
}

// copyValue rebuilds v through msgpack where it can, so equal values
// that are not the same Go value are compared too.
func copyValue(v cty.Value) cty.Value {
	if v.ContainsMarked() || !v.Type().Equals(v.Type().WithoutOptionalAttributesDeep()) {
		return v
	}
	dv, err := encode(v, v.Type())
	if err != nil {
		return v
	}
	back, err := decode(dv, v.Type())
	if err != nil {
		return v
	}
	return back
}
