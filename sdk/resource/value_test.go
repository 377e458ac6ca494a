package resource

import (
	"math"
	"strconv"
	"testing"
	"unsafe"
)

func TestParseNumberKeepsDigitsOnlyWhenADoubleCannot(t *testing.T) {
	tests := map[string]struct {
		literal   string
		keepsText bool
	}{
		"small integer":        {"42", false},
		"decimal fraction":     {"0.1", false},
		"exponent":             {"1e300", false},
		"2^53+1":               {"9007199254740993", true},
		"twenty digits":        {"12345678901234567891", true},
		"long fraction":        {"0.12345678901234567890123", true},
		"negative big integer": {"-98765432109876543210", true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			v, err := ParseNumber(tc.literal)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.NumberLiteral(); tc.keepsText && got != tc.literal {
				t.Errorf("NumberLiteral() = %q, want every digit of %q", got, tc.literal)
			}
			if (v.str != "") != tc.keepsText {
				t.Errorf("kept literal %q; want kept=%v", v.str, tc.keepsText)
			}
			if !tc.keepsText && !v.Equal(NewNumber(v.Number())) {
				t.Errorf("%s parsed is not equal to the same double", tc.literal)
			}
		})
	}
	if _, err := ParseNumber("12abc"); err == nil {
		t.Error("ParseNumber accepted 12abc")
	}
}

func TestBigNumberOfADoubleIsItsShortestDecimal(t *testing.T) {
	v, err := ParseNumber("-18014399708495870")
	if err != nil {
		t.Fatal(err)
	}
	i, acc := v.BigNumber().Int(nil)
	if acc != 0 || i.String() != "-18014399708495870" {
		t.Errorf("BigNumber() = %v (%v), want -18014399708495870 exactly", i, acc)
	}
	if !v.Equal(NewNumber(-18014399708495870)) {
		t.Errorf("the literal and the double nearest it differ")
	}
}

func TestNumberLiteralReadsLikeJSON(t *testing.T) {
	for f, want := range map[float64]string{1e6: "1000000", 0.5: "0.5", 1e21: "1e+21", 1e-7: "1e-07", -42: "-42", 0: "0", 1.25e20: "125000000000000000000"} {
		if got := NewNumber(f).NumberLiteral(); got != want {
			t.Errorf("NumberLiteral(%g) = %q, want %q", f, got, want)
		}
	}
}

// TestValueIsAStringAndAnInterface: a Value is a string and an interface (32 bytes on
// a 64-bit machine), so a map slot of a property (16-byte key, Value) is
// 48 bytes and a small object's group 8 of them. A third word or a kind
// byte would take it to 40 or 48 bytes, and every object of a large
// stack's state a size class up.
func TestValueIsAStringAndAnInterface(t *testing.T) {
	if got, want := unsafe.Sizeof(Value{}), 2*unsafe.Sizeof(""); got != want {
		t.Errorf("resource.Value is %d bytes, want %d (a string and an interface)", got, want)
	}
}

// TestKindsAndAccessors: every constructor makes a value of its kind,
// whose accessors give back what it was made from and zero values for
// the other kinds.
func TestKindsAndAccessors(t *testing.T) {
	asset, archive := &Asset{Text: "a"}, &Archive{Path: "p"}
	tests := map[string]struct {
		v      Value
		kind   Kind
		boolV  bool
		num    float64
		str    string
		lit    string
		secret bool
	}{
		"null":          {v: Null(), kind: NullKind},
		"zero":          {v: Value{}, kind: NullKind},
		"unknown":       {v: Unknown(), kind: UnknownKind},
		"true":          {v: NewBool(true), kind: BoolKind, boolV: true},
		"false":         {v: NewBool(false), kind: BoolKind},
		"small integer": {v: NewNumber(2), kind: NumberKind, num: 2, lit: "2"},
		"255":           {v: NewNumber(255), kind: NumberKind, num: 255, lit: "255"},
		"256":           {v: NewNumber(256), kind: NumberKind, num: 256, lit: "256"},
		"fraction":      {v: NewNumber(2.5), kind: NumberKind, num: 2.5, lit: "2.5"},
		"negative":      {v: NewNumber(-3), kind: NumberKind, num: -3, lit: "-3"},
		"zero number":   {v: NewNumber(0), kind: NumberKind, lit: "0"},
		"empty string":  {v: NewString(""), kind: StringKind},
		"string":        {v: NewString("x"), kind: StringKind, str: "x"},
		"array":         {v: NewArray(NewString("a")), kind: ArrayKind},
		"object":        {v: NewObject(Object{"a": NewNumber(1)}), kind: ObjectKind},
		"asset":         {v: NewAsset(asset), kind: AssetKind},
		"archive":       {v: NewArchive(archive), kind: ArchiveKind},
		"reference":     {v: NewReference(Reference{URN: "urn:pulumi:s::p::t::n"}), kind: ReferenceKind},
		"secret":        {v: MakeSecret(NewString("s")), kind: SecretKind, secret: true},
		"secret twice":  {v: MakeSecret(MakeSecret(NewNumber(1))), kind: SecretKind, secret: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			v := tc.v
			got := []any{v.Kind(), v.IsNull(), v.IsUnknown(), v.IsSecret(), v.Bool(), v.Number(), v.Str(), v.NumberLiteral()}
			want := []any{tc.kind, tc.kind == NullKind, tc.kind == UnknownKind, tc.secret, tc.boolV, tc.num, tc.str, tc.lit}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("accessor %d: got %v, want %v (kind, null, unknown, secret, bool, number, str, literal)", i, got[i], want[i])
				}
			}
			if !v.Equal(tc.v) {
				t.Errorf("%v is not equal to itself", v)
			}
		})
	}
	negZero := math.Copysign(0, -1)
	if NewNumber(0).Equal(NewNumber(negZero)) != (negZero == 0) {
		t.Error("0 and -0 compare as doubles do")
	}
	if !math.Signbit(NewNumber(math.Copysign(0, -1)).Number()) {
		t.Error("-0 lost its sign")
	}
	if NewBool(true).Equal(NewBool(false)) || NewString("1").Equal(NewNumber(1)) {
		t.Error("values of different content or kind compare equal")
	}
}

// Int64 agrees with parsing NumberLiteral as a decimal int64, the slower
// way it replaces, at every boundary: doubles beyond 2^53 stand for their
// shortest decimal, and kept literals count by their digits.
func TestInt64AgreesWithTheLiteral(t *testing.T) {
	values := []Value{NewString("7"), NewBool(true), Null(), Unknown(), MakeSecret(NewNumber(3))}
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 2, 255, 256, 0.5, -2.5, 1 << 53, -(1 << 53), 1<<53 + 2,
		1 << 60, -(1 << 63), 1 << 63, 1e19, 1e21, 1.25e20, math.Inf(1), math.Inf(-1), math.NaN(), math.MaxInt64, math.MinInt64} {
		values = append(values, NewNumber(f))
	}
	for _, lit := range []string{"9007199254740993", "-9007199254740993", "9223372036854775807", "-9223372036854775808",
		"9223372036854775808", "12345678901234567891", "0.12345678901234567890123", "1e300"} {
		v, err := ParseNumber(lit)
		if err != nil {
			t.Fatal(err)
		}
		values = append(values, v)
	}
	for _, v := range values {
		want, err := strconv.ParseInt(v.NumberLiteral(), 10, 64)
		wantOK := err == nil && v.Kind() == NumberKind
		if !wantOK {
			want = 0
		}
		got, ok := v.Int64()
		if got != want || ok != wantOK {
			t.Errorf("%v (literal %q).Int64() = %d, %v; want %d, %v", v, v.NumberLiteral(), got, ok, want, wantOK)
		}
	}
}
