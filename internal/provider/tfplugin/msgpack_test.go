package tfplugin

import (
	"bytes"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
	"pgregory.net/rapid"
)

// The fast path writes what cty's encoder writes, byte for byte, for
// every value it takes; it takes every known, unmarked value of a type
// without a dynamic part.
func TestFastMsgpackMatchesCty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ty := genType(3).Draw(t, "type")
		c, err := toCty(genValue(t, ty, false), ty, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ctymsgpack.Marshal(c, ty)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := fastMsgpack(c, ty)
		if !ok {
			if c.IsWhollyKnown() {
				t.Fatalf("fast path refused the known value %#v of type %s", c, ty.FriendlyName())
			}
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%#v as %s:\n got %x\nwant %x", c, ty.FriendlyName(), got, want)
		}
	})
}

// Sizes and numbers at the edges of msgpack's encodings, and values the
// fast path leaves to cty.
func TestFastMsgpackEdges(t *testing.T) {
	strs := func(n int) cty.Value {
		vs := make([]cty.Value, n)
		for i := range vs {
			vs[i] = cty.StringVal(strings.Repeat("x", i))
		}
		return cty.ListVal(vs)
	}
	huge, _ := new(big.Float).SetString("98765432109876543210987654321")
	cases := map[string]struct {
		v    cty.Value
		ty   cty.Type
		fast bool
	}{
		"string lengths":       {v: cty.TupleVal([]cty.Value{cty.StringVal(strings.Repeat("a", 31)), cty.StringVal(strings.Repeat("a", 32)), cty.StringVal(strings.Repeat("a", 255)), cty.StringVal(strings.Repeat("a", 256)), cty.StringVal(strings.Repeat("a", 65535)), cty.StringVal(strings.Repeat("a", 65536))}), fast: true},
		"15 elements":          {v: strs(15), fast: true},
		"16 elements":          {v: strs(16), fast: true},
		"70000 elements":       {v: cty.ListVal(repeatValue(cty.True, 70000)), fast: true},
		"map of 16":            {v: cty.MapVal(keyed(16)), fast: true},
		"integers":             {v: cty.TupleVal(numbers(0, 127, 128, 255, 256, 65535, 65536, math.MaxUint32, math.MaxUint32+1, math.MaxInt64, -1, -32, -33, -128, -129, -32768, -32769, math.MinInt32, math.MinInt32-1, math.MinInt64)), fast: true},
		"fractions and more":   {v: cty.TupleVal([]cty.Value{cty.NumberFloatVal(0.5), cty.NumberFloatVal(-2.5e-8), cty.NumberVal(huge), cty.PositiveInfinity, cty.NegativeInfinity, cty.MustParseNumberVal("0.1"), cty.MustParseNumberVal("1e300")}), fast: true},
		"null of its type":     {v: cty.NullVal(cty.List(cty.String)), ty: cty.List(cty.String), fast: true},
		"unknown":              {v: cty.UnknownVal(cty.String), fast: false},
		"refined unknown":      {v: cty.ObjectVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String).RefineNotNull()}), fast: false},
		"marked":               {v: cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("s").Mark("sensitive")}), fast: false},
		"dynamic attribute":    {v: cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("s")}), ty: cty.Object(map[string]cty.Type{"a": cty.DynamicPseudoType}), fast: false},
		"non-ASCII name":       {v: cty.ObjectVal(map[string]cty.Value{"é": cty.True}), fast: false},
		"number as string":     {v: cty.NumberIntVal(5), ty: cty.String, fast: false},
		"attribute type apart": {v: cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1)}), ty: cty.Object(map[string]cty.Type{"a": cty.String}), fast: false},
		"attribute missing":    {v: cty.ObjectVal(map[string]cty.Value{"a": cty.True}), ty: cty.Object(map[string]cty.Type{"a": cty.Bool, "b": cty.Bool}), fast: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ty := tc.ty
			if ty == cty.NilType {
				ty = tc.v.Type()
			}
			got, ok := fastMsgpack(tc.v, ty)
			if ok != tc.fast {
				t.Fatalf("fast path took it: %v, want %v", ok, tc.fast)
			}
			want, err := ctymsgpack.Marshal(tc.v, ty)
			if !ok {
				enc, encErr := encode(tc.v, ty)
				if diff := cmp.Diff(err == nil, encErr == nil); diff != "" || (err == nil && !bytes.Equal(enc.msgpack, want)) {
					t.Fatalf("encode differs from cty's encoder when the fast path refuses: err %v, cty err %v", encErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("got %x\nwant %x", got, want)
			}
		})
	}
}

func repeatValue(v cty.Value, n int) []cty.Value {
	out := make([]cty.Value, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func keyed(n int) map[string]cty.Value {
	out := map[string]cty.Value{}
	for i := range n {
		out[strings.Repeat("k", i+1)] = cty.NumberIntVal(int64(i))
	}
	return out
}

func numbers(ns ...int64) []cty.Value {
	out := make([]cty.Value, len(ns))
	for i, n := range ns {
		out[i] = cty.NumberIntVal(n)
	}
	return out
}

// TestEncodeAllocations bounds what encoding a random_pet's state
// allocates: cty's encoder made a stream encoder, a sorted copy of the
// attribute names and a normalized string per name, 20 allocations; the
// fast path appends to one buffer.
func TestEncodeAllocations(t *testing.T) {
	ty := petBlock().impliedType()
	state := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("proud-cat"), "keepers": cty.NullVal(cty.Map(cty.String)), "length": cty.NumberIntVal(2),
		"prefix": cty.NullVal(cty.String), "separator": cty.StringVal("-")})
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := encode(state, ty); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 4 {
		t.Errorf("encoding a random_pet state allocated %v times, want at most 4", allocs)
	}
}
