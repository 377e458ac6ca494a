package tfplugin

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/text/unicode/norm"
	"pgregory.net/rapid"

	"github.com/plinth-iac/plinth/sdk/resource"
)

func mustNumber(t testing.TB, s string) resource.Value {
	v, err := resource.ParseNumber(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestToCty(t *testing.T) {
	tests := map[string]struct {
		in      resource.Value
		ty      cty.Type
		want    cty.Value
		wantErr string
	}{
		"string to number":   {resource.NewString("42"), cty.Number, cty.NumberIntVal(42), ""},
		"number to string":   {resource.NewNumber(1.5), cty.String, cty.StringVal("1.5"), ""},
		"bool to string":     {resource.NewBool(true), cty.String, cty.StringVal("true"), ""},
		"string to bool":     {resource.NewString("false"), cty.Bool, cty.False, ""},
		"not a number":       {resource.NewString("abc"), cty.Number, cty.NilVal, `expected a number, found the string "abc"`},
		"secret sent plain":  {resource.MakeSecret(resource.NewString("s")), cty.String, cty.StringVal("s"), ""},
		"null":               {resource.Null(), cty.List(cty.String), cty.NullVal(cty.List(cty.String)), ""},
		"unknown":            {resource.Unknown(), cty.Map(cty.Number), cty.UnknownVal(cty.Map(cty.Number)), ""},
		"empty list":         {resource.NewArray(), cty.List(cty.String), cty.ListValEmpty(cty.String), ""},
		"set dedupes":        {resource.MustFromGo([]any{"a", "a", "b"}), cty.Set(cty.String), cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), ""},
		"map":                {resource.MustFromGo(map[string]any{"k": 1}), cty.Map(cty.Number), cty.MapVal(map[string]cty.Value{"k": cty.NumberIntVal(1)}), ""},
		"object fills nulls": {resource.MustFromGo(map[string]any{"a": "x"}), cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Bool}), cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.NullVal(cty.Bool)}), ""},
		"object extra key":   {resource.MustFromGo(map[string]any{"z": 1}), cty.Object(map[string]cty.Type{"a": cty.String}), cty.NilVal, `z: unsupported property "z"; expected one of ["a"]`},
		"nested path":        {resource.MustFromGo([]any{map[string]any{"n": "x"}}), cty.List(cty.Object(map[string]cty.Type{"n": cty.Number})), cty.NilVal, `[0].n: expected a number, found the string "x"`},
		"tuple":              {resource.MustFromGo([]any{"a", 1}), cty.Tuple([]cty.Type{cty.String, cty.Number}), cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(1)}), ""},
		"dynamic":            {resource.MustFromGo([]any{"a", true}), cty.DynamicPseudoType, cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.True}), ""},
		"asset refused":      {resource.NewAsset(&resource.Asset{Text: "x"}), cty.DynamicPseudoType, cty.NilVal, "asset values cannot be passed to a Terraform provider"},
		"list of mixed dyn":  {resource.MustFromGo([]any{"a", true}), cty.List(cty.DynamicPseudoType), cty.NilVal, "all elements must have the same type"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := toCty(tc.in, tc.ty, nil)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !got.RawEquals(tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestNumbersKeepEveryDigit(t *testing.T) {
	for _, lit := range []string{"9007199254740993", "123456789012345678901234567890", "0.1", "-0.000001", "1e300", "3"} {
		t.Run(lit, func(t *testing.T) {
			v := mustNumber(t, lit)
			c, err := toCty(v, cty.Number, nil)
			if err != nil {
				t.Fatal(err)
			}
			dv, err := encode(c, cty.Number)
			if err != nil {
				t.Fatal(err)
			}
			back, err := decode(dv, cty.Number)
			if err != nil {
				t.Fatal(err)
			}
			// The same number, written the same way: 1e300 comes back at
			// cty's 512 bits, and must not come back as the 301 digits of
			// that binary value.
			if got := fromCty(back); !got.Equal(v) || got.NumberLiteral() != v.NumberLiteral() {
				t.Errorf("round trip of %s gave %s", lit, got.NumberLiteral())
			}
		})
	}
}

func TestFromCtySetsBecomeArrays(t *testing.T) {
	got := fromCty(cty.SetVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a")}))
	want := resource.MustFromGo([]any{"a", "b"})
	if !got.Equal(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestStateJSON(t *testing.T) {
	o := resource.Object{
		"big":    mustNumber(t, "123456789012345678901234567890"),
		"secret": resource.MakeSecret(resource.NewString("s")),
		"list":   resource.MustFromGo([]any{1.5, nil, true}),
		"round":  resource.NewNumber(1e6),
		"huge":   resource.NewNumber(1e300),
	}
	got, err := stateJSON(o)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"big":123456789012345678901234567890,"huge":1` + strings.Repeat("0", 300) + `,"list":[1.5,null,true],"round":1000000,"secret":"s"}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for name, bad := range map[string]resource.Value{"unknown": resource.Unknown(), "infinity": resource.NewNumber(math.Inf(1))} {
		if _, err := stateJSON(resource.Object{"x": bad}); err == nil {
			t.Errorf("%s was written to state JSON", name)
		}
	}
}

// genType draws a cty type of bounded depth.
func genType(depth int) *rapid.Generator[cty.Type] {
	return rapid.Custom(func(t *rapid.T) cty.Type {
		prims := []cty.Type{cty.String, cty.Number, cty.Bool}
		if depth <= 0 {
			return rapid.SampledFrom(prims).Draw(t, "prim")
		}
		switch rapid.IntRange(0, 5).Draw(t, "kind") {
		case 0:
			return cty.List(genType(depth-1).Draw(t, "elem"))
		case 1:
			return cty.Set(genType(0).Draw(t, "elem")) // sets of primitives
		case 2:
			return cty.Map(genType(depth-1).Draw(t, "elem"))
		case 3:
			attrs := map[string]cty.Type{}
			for i, n := 0, rapid.IntRange(0, 3).Draw(t, "n"); i < n; i++ {
				attrs[fmt.Sprintf("a%d", i)] = genType(depth-1).Draw(t, "attr")
			}
			return cty.Object(attrs)
		}
		return rapid.SampledFrom(prims).Draw(t, "prim")
	})
}

var numberLiterals = []string{"0", "1", "-7", "0.5", "0.1", "1e21", "1e300", "9007199254740993", "98765432109876543210987654321", "-2.5e-8"}

// genValue draws a plinth value of type ty; unknowns only outside sets.
func genValue(t *rapid.T, ty cty.Type, inSet bool) resource.Value {
	if rapid.IntRange(0, 9).Draw(t, "null") == 0 {
		return resource.Null()
	}
	if !inSet && rapid.IntRange(0, 14).Draw(t, "unknown") == 0 {
		return resource.Unknown()
	}
	switch {
	case ty == cty.String:
		return resource.NewString(rapid.String().Draw(t, "s"))
	case ty == cty.Bool:
		return resource.NewBool(rapid.Bool().Draw(t, "b"))
	case ty == cty.Number:
		if rapid.Bool().Draw(t, "float") {
			return resource.NewNumber(rapid.Float64().Draw(t, "f"))
		}
		v, _ := resource.ParseNumber(rapid.SampledFrom(numberLiterals).Draw(t, "lit"))
		return v
	case ty.IsListType(), ty.IsSetType():
		elems := make([]resource.Value, rapid.IntRange(0, 3).Draw(t, "len"))
		for i := range elems {
			elems[i] = genValue(t, ty.ElementType(), inSet || ty.IsSetType())
		}
		return resource.NewArray(elems...)
	case ty.IsMapType():
		o := resource.Object{}
		for i, n := 0, rapid.IntRange(0, 3).Draw(t, "len"); i < n; i++ {
			o[rapid.StringMatching(`[a-z]{1,4}`).Draw(t, "key")] = genValue(t, ty.ElementType(), inSet)
		}
		return resource.NewObject(o)
	}
	o := resource.Object{}
	for name, aty := range ty.AttributeTypes() {
		if rapid.Bool().Draw(t, "present") {
			o[name] = genValue(t, aty, inSet)
		}
	}
	return resource.NewObject(o)
}

// normalize gives the plinth value the cty round trip should return: nulls
// for absent attributes, sets as sorted, deduplicated arrays, and strings in
// Unicode normal form C (cty, like Terraform, normalizes every string).
// Secrets are not generated: they are sent plain and come back by schema.
func normalize(v resource.Value, ty cty.Type) resource.Value {
	switch {
	case v.IsNull() || v.IsUnknown():
		return v
	case ty == cty.String:
		return resource.NewString(norm.NFC.String(v.Str()))
	case ty == cty.Number && v.Number() == 0:
		return resource.NewNumber(0) // -0 travels as the integer 0
	case ty.IsListType():
		out := make([]resource.Value, len(v.Array()))
		for i, e := range v.Array() {
			out[i] = normalize(e, ty.ElementType())
		}
		return resource.NewArray(out...)
	case ty.IsSetType():
		return normalizeSet(v, ty)
	case ty.IsMapType():
		out := resource.Object{}
		for k, e := range v.Object() {
			out[k] = normalize(e, ty.ElementType())
		}
		return resource.NewObject(out)
	case ty.IsObjectType():
		out := resource.Object{}
		for name, aty := range ty.AttributeTypes() {
			out[name] = normalize(v.Object()[name], aty)
		}
		return resource.NewObject(out)
	}
	return v
}

func normalizeSet(v resource.Value, ty cty.Type) resource.Value {
	var out []resource.Value
	for _, e := range v.Array() {
		e = normalize(e, ty.ElementType())
		dup := false
		for _, o := range out {
			dup = dup || o.Equal(e)
		}
		if !dup {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return resource.NewArray(out...)
}

func sortSets(v resource.Value, ty cty.Type) resource.Value {
	if ty.IsSetType() && v.Kind() == resource.ArrayKind {
		out := append([]resource.Value(nil), v.Array()...)
		sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
		return resource.NewArray(out...)
	}
	return v
}

// Values survive plinth -> cty -> msgpack -> cty -> plinth, whatever their
// type, with every digit of their numbers.
func TestCodecRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ty := genType(3).Draw(t, "type")
		v := genValue(t, ty, false)
		c, err := toCty(v, ty, nil)
		if err != nil {
			t.Fatalf("toCty(%v, %s): %v", v, ty.FriendlyName(), err)
		}
		dv, err := encode(c, ty)
		if err != nil {
			t.Fatal(err)
		}
		back, err := decode(dv, ty)
		if err != nil {
			t.Fatal(err)
		}
		got := fromCty(back)
		want := normalize(v, ty)
		if !sortDeep(got, ty).Equal(sortDeep(want, ty)) {
			t.Fatalf("round trip of %v as %s:\n got %v\nwant %v", v, ty.FriendlyName(), got, want)
		}
	})
}

// sortDeep sorts every set in v, so that set order does not matter.
func sortDeep(v resource.Value, ty cty.Type) resource.Value {
	switch {
	case v.IsNull() || v.IsUnknown():
		return v
	case ty.IsListType(), ty.IsSetType():
		out := make([]resource.Value, len(v.Array()))
		for i, e := range v.Array() {
			out[i] = sortDeep(e, ty.ElementType())
		}
		return sortSets(resource.NewArray(out...), ty)
	case ty.IsMapType():
		out := resource.Object{}
		for k, e := range v.Object() {
			out[k] = sortDeep(e, ty.ElementType())
		}
		return resource.NewObject(out)
	case ty.IsObjectType():
		out := resource.Object{}
		for name, aty := range ty.AttributeTypes() {
			out[name] = sortDeep(v.Object()[name], aty)
		}
		return resource.NewObject(out)
	}
	return v
}
