package provider

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/plinth-iac/plinth/sdk/resource"
)

type inner struct {
	Key   string `plinth:"key"`
	Count int16  `plinth:"count,optional"`
}

type everything struct {
	B     bool                      `plinth:"b"`
	I8    int8                      `plinth:"i8"`
	I64   int64                     `plinth:"i64"`
	U32   uint32                    `plinth:"u32,optional"`
	F     float64                   `plinth:"f"`
	S     string                    `plinth:"s,secret"`
	PS    *string                   `plinth:"ps,optional"`
	List  []string                  `plinth:"list,optional"`
	Map   map[string]int            `plinth:"map"`
	Items []inner                   `plinth:"items,optional"`
	Ptr   *inner                    `plinth:"ptr,optional"`
	Asset *resource.Asset           `plinth:"asset,optional"`
	Any   resource.Value            `plinth:"any,optional"`
	Tags  map[string]resource.Value `plinth:"tags,optional"`
	Plain any                       `plinth:"plain,optional"`
	Arch  *resource.Archive         `plinth:"arch,optional"`
}

var codecCmp = cmp.Options{
	cmp.Comparer(func(a, b resource.Value) bool { return a.Equal(b) }),
	cmp.Comparer(func(a, b *resource.Asset) bool { return a.Equal(b) }),
	cmp.Comparer(func(a, b *resource.Archive) bool { return a.Equal(b) }),
}

func everythingCodec(t testing.TB) *structCodec {
	sc, err := newTypeBuilder("test").object(reflect.TypeFor[everything](), "index")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func genInner() *rapid.Generator[inner] {
	return rapid.Custom(func(t *rapid.T) inner {
		return inner{Key: rapid.String().Draw(t, "key"), Count: rapid.Int16().Draw(t, "count")}
	})
}

func genScalarValue() *rapid.Generator[resource.Value] {
	return rapid.OneOf(
		rapid.Just(resource.Null()),
		rapid.Map(rapid.Bool(), resource.NewBool),
		rapid.Map(rapid.Float64Range(-1e15, 1e15), resource.NewNumber),
		rapid.Map(rapid.String(), resource.NewString),
		rapid.Map(rapid.String(), func(s string) resource.Value { return resource.MakeSecret(resource.NewString(s)) }),
		rapid.Just(resource.Unknown()),
	)
}

func genEverything() *rapid.Generator[everything] {
	return rapid.Custom(func(t *rapid.T) everything {
		e := everything{
			B: rapid.Bool().Draw(t, "b"), I8: rapid.Int8().Draw(t, "i8"), I64: rapid.Int64().Draw(t, "i64"),
			U32: rapid.Uint32().Draw(t, "u32"), F: rapid.Float64().Filter(func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }).Draw(t, "f"),
			S:     rapid.String().Draw(t, "s"),
			PS:    rapid.Ptr(rapid.String(), true).Draw(t, "ps"),
			List:  rapid.SliceOf(rapid.String()).Draw(t, "list"),
			Map:   rapid.MapOf(rapid.String(), rapid.Int()).Draw(t, "map"),
			Items: rapid.SliceOf(genInner()).Draw(t, "items"),
			Ptr:   rapid.Ptr(genInner(), true).Draw(t, "ptr"),
			Any:   genScalarValue().Draw(t, "any"),
			Tags:  rapid.MapOf(rapid.String(), genScalarValue()).Draw(t, "tags"),
		}
		if rapid.Bool().Draw(t, "hasAsset") {
			e.Asset = resource.NewTextAsset(rapid.String().Draw(t, "text"))
		}
		if rapid.Bool().Draw(t, "hasArchive") {
			members := map[string]resource.Value{}
			for _, name := range rapid.SliceOf(rapid.StringMatching(`[a-z]{1,8}`)).Draw(t, "members") {
				members[name] = resource.NewAsset(resource.NewTextAsset(name))
			}
			a, err := resource.NewAssetArchive(members)
			if err != nil {
				t.Fatal(err)
			}
			e.Arch = a
		}
		if rapid.Bool().Draw(t, "hasPlain") {
			e.Plain = rapid.String().Draw(t, "plain")
		}
		return e
	})
}

// Encoding a Go value and decoding the result gives the value back, and an
// encoded value always passes Check.
func TestCodecRoundTrip(t *testing.T) {
	sc := everythingCodec(t)
	rapid.Check(t, func(t *rapid.T) {
		want := genEverything().Draw(t, "value")
		o, err := sc.encodeObject(reflect.ValueOf(want))
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		if !o["s"].IsSecret() {
			t.Fatalf("secret field encoded as %v", o["s"])
		}
		var fs []CheckFailure
		sc.checkObject(o, nil, &fs)
		if len(fs) > 0 {
			t.Fatalf("encoded value fails Check: %v", fs)
		}
		var got everything
		if err := sc.decodeObject(o, reflect.ValueOf(&got).Elem()); err != nil {
			t.Fatalf("decode: %v", err)
		}
		if d := cmp.Diff(want, got, codecCmp); d != "" {
			t.Fatalf("round trip (-want +got):\n%s", d)
		}
	})
}

func TestDecodeErrorsNameThePath(t *testing.T) {
	sc := everythingCodec(t)
	tests := map[string]struct {
		o    resource.Object
		want string
	}{
		"nested":   {resource.ObjectFromGo(map[string]any{"items": []any{map[string]any{"key": 1}}}), "property items[0].key: expected a string, got a number"},
		"map key":  {resource.ObjectFromGo(map[string]any{"map": map[string]any{"a.b": "x"}}), `property map["a.b"]: expected an integer, got a string`},
		"range":    {resource.ObjectFromGo(map[string]any{"i8": 1000}), "property i8: 1000 is out of range: it must be between -128 and 127"},
		"fraction": {resource.ObjectFromGo(map[string]any{"i64": 0.5}), "property i64: expected an integer, got 0.5"},
	}
	for name, tc := range tests {
		var got everything
		err := sc.decodeObject(tc.o, reflect.ValueOf(&got).Elem())
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: err = %v, want %s", name, err, tc.want)
		}
	}
}

func TestLowerCamel(t *testing.T) {
	for in, want := range map[string]string{"Length": "length", "ID": "id", "URLPath": "urlPath", "SHA256": "sha256", "X": "x", "createDuration": "createDuration"} {
		if got := lowerCamel(in); got != want {
			t.Errorf("lowerCamel(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzCheckThenDecode feeds arbitrary JSON objects, as a program might send,
// through Check and decoding: nothing panics, and values that pass Check
// always decode.
func FuzzCheckThenDecode(f *testing.F) {
	for _, seed := range []string{
		`{"b":true,"i8":3,"i64":1,"f":1.5,"s":"x","map":{"a":1}}`,
		`{"items":[{"key":"k","count":70000}],"i8":-129}`,
		`{"ptr":{"key":null},"list":[1,"a",null],"tags":{"x":[1,2]}}`,
		`{"unknownProp":1,"u32":-1,"any":{"deep":[{}]}}`,
	} {
		f.Add([]byte(seed))
	}
	sc := everythingCodec(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var m map[string]any
		if json.Unmarshal(data, &m) != nil {
			return
		}
		v, err := resource.FromGo(m)
		if err != nil {
			return
		}
		var fs []CheckFailure
		sc.checkObject(v.Object(), nil, &fs)
		var got everything
		err = sc.decodeObject(sc.objectWithDefaults(v.Object()), reflect.ValueOf(&got).Elem())
		if len(fs) == 0 && err != nil {
			t.Fatalf("passed Check but failed to decode: %v", err)
		}
	})
}

type defaults struct {
	B    bool              `plinth:"b" default:"true"`
	F    float64           `plinth:"f" default:"2.5"`
	PI   *int              `plinth:"pi" default:"7"`
	L    []string          `plinth:"l" default:"[\"a\",\"b\"]"`
	M    map[string]int    `plinth:"m" default:"{\"x\":1}"`
	In   inner             `plinth:"in" default:"{\"key\":\"k\"}"`
	Kept string            `plinth:"kept" default:"d"`
	Zero map[string]string `plinth:"zero,optional"`
}

func TestDefaultsOfEveryKind(t *testing.T) {
	sc, err := newTypeBuilder("test").object(reflect.TypeFor[defaults](), "index")
	if err != nil {
		t.Fatal(err)
	}
	got := sc.objectWithDefaults(resource.Object{"kept": resource.NewString("mine"), "b": resource.Null()})
	want := resource.ObjectFromGo(map[string]any{"b": true, "f": 2.5, "pi": 7, "l": []any{"a", "b"},
		"m": map[string]any{"x": 1}, "in": map[string]any{"key": "k"}, "kept": "mine"})
	if d := cmp.Diff(want, got, codecCmp); d != "" {
		t.Errorf("defaults (-want +got):\n%s", d)
	}
	// A zero value with a default is written out, or Check would put the
	// default back.
	o, err := sc.encodeObject(reflect.ValueOf(defaults{}))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := o["b"]; !ok || v.Bool() {
		t.Errorf("b = %v, %v; want an explicit false", v, ok)
	}
	if _, ok := o["zero"]; ok {
		t.Errorf("an optional zero value without a default was written")
	}
	for text, want := range map[string]string{"yes": `"yes" is not a boolean`, "{": "not valid JSON: unexpected end of JSON input"} {
		c := codec(boolCodec{})
		if text == "{" {
			c = mapCodec{elem: stringCodec{}}
		}
		if _, err := parseDefault(text, c); err == nil || err.Error() != want {
			t.Errorf("parseDefault(%q) = %v, want %s", text, err, want)
		}
	}
}

// TestIntCodecSmallAgreesWithBig holds the fast path of integers (small)
// to the exact one (integer) at the edges of every width: whatever small
// accepts, integer accepts with the same value, and what small leaves
// alone (fractions, huge literals, out of range) goes to integer.
func TestIntCodecSmallAgreesWithBig(t *testing.T) {
	types := []reflect.Type{reflect.TypeFor[int8](), reflect.TypeFor[uint8](), reflect.TypeFor[int16](), reflect.TypeFor[uint32](),
		reflect.TypeFor[int](), reflect.TypeFor[int64](), reflect.TypeFor[uint64](), reflect.TypeFor[uint]()}
	literals := []string{"0", "-0", "1", "-1", "127", "128", "-128", "-129", "255", "256", "32767", "-32769", "4294967295", "4294967296",
		"9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551615", "18446744073709551616",
		"2.0000000000000001", "0.5", "1e3", "1E400", "-1e-7"}
	for _, ty := range types {
		c := intCodec{t: ty}
		for _, lit := range literals {
			v, err := resource.ParseNumber(lit)
			if err != nil {
				t.Fatalf("ParseNumber(%s): %v", lit, err)
			}
			n, ok := c.small(v)
			big, bigErr := c.integer(v)
			if ok && (bigErr != nil || !big.IsInt64() || big.Int64() != n) {
				t.Errorf("%s %s: small = %d, but integer = %v, %v", ty, lit, n, big, bigErr)
			}
			if !ok && bigErr == nil && big.IsInt64() {
				t.Errorf("%s %s: small refused %s, which integer takes and int64 holds", ty, lit, big)
			}
		}
	}
}
