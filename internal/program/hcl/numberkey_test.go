package hcl

import (
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestNumberKeySuffix: a number key is written with the digits of its
// decimal expansion, whether strconv or math/big writes it.
func TestNumberKeySuffix(t *testing.T) {
	huge, _ := new(big.Float).SetPrec(512).SetString("123456789012345678901234567890")
	tests := map[string]struct {
		key  cty.Value
		want string
	}{
		"count index 0":   {cty.NumberIntVal(0), "[0]"},
		"count index 999": {cty.NumberIntVal(999), "[999]"},
		"negative":        {cty.NumberIntVal(-3), "[-3]"},
		"negative zero":   {cty.NumberFloatVal(0).Negate(), "[-0]"},
		"fraction":        {cty.NumberFloatVal(1.5), "[1.5]"},
		"beyond int64":    {cty.NumberVal(huge), "[123456789012345678901234567890]"},
		"string":          {cty.StringVal("a"), `["a"]`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := instanceKey{key: tc.key}.suffix()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tc.key.Type() == cty.Number {
				if old := "[" + tc.key.AsBigFloat().Text('f', -1) + "]"; old != tc.want {
					t.Errorf("math/big writes %s, the table says %s", old, tc.want)
				}
			}
		})
	}
}

// BenchmarkCountKeySuffix is the address suffix of a count instance,
// written for every instance of every counted resource.
func BenchmarkCountKeySuffix(b *testing.B) {
	k := instanceKey{key: cty.NumberIntVal(742)}
	for b.Loop() {
		_ = k.suffix()
	}
}

// TestNumberFromCtyLiteral: a number turned into an engine value keeps
// the literal terraform would write for it in `terraform output -json`.
func TestNumberFromCtyLiteral(t *testing.T) {
	big20, _ := new(big.Float).SetPrec(512).SetString("12345678901234567890")
	tests := map[string]struct {
		n    cty.Value
		want string
	}{
		"integer":          {cty.NumberIntVal(42), "42"},
		"fraction":         {cty.NumberFloatVal(2.5), "2.5"},
		"beyond a double":  {cty.NumberVal(big20), "12345678901234567890"},
		"1e20 fits":        {cty.NumberFloatVal(1e20), "100000000000000000000"},
		"negative, beyond": {cty.NumberVal(new(big.Float).Neg(big20)), "-12345678901234567890"},
		"small exact":      {cty.NumberFloatVal(0.125), "0.125"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := numberFromCty(tc.n.AsBigFloat()).NumberLiteral()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestNumberFromCtyFastPath: the integers numberFromCty makes directly
// are the values the decimal text gives, at the edges of the fast path
// and beyond them.
func TestNumberFromCtyFastPath(t *testing.T) {
	const limit = 1 << 53
	var ns []*big.Float
	for _, x := range []float64{0, 1, -1, 2, 42, 999, 1e15, -1e15, limit - 1, limit, -limit, limit + 2, -limit - 2, 1e20, 0.5, -2.25, 1e-3} {
		ns = append(ns, new(big.Float).SetPrec(512).SetFloat64(x))
	}
	for i := int64(-1000); i <= 1000; i += 7 {
		ns = append(ns, new(big.Float).SetPrec(512).SetInt64(i*i*i))
	}
	third, _ := new(big.Float).SetPrec(512).SetString("0.3333333333333333333333333")
	ns = append(ns, third, new(big.Float).SetPrec(512).Neg(new(big.Float)))
	for _, f := range ns {
		want, got := numberFromText(f), numberFromCty(f)
		if want.NumberLiteral() != got.NumberLiteral() || want.Number() != got.Number() || !want.Equal(got) {
			t.Errorf("%s: numberFromCty gives %v (literal %q), the text gives %v (literal %q)",
				f.Text('g', -1), got.Number(), got.NumberLiteral(), want.Number(), want.NumberLiteral())
		}
	}
}

// BenchmarkNumberFromCty is a count index turned into an engine value,
// done for every instance's every number.
func BenchmarkNumberFromCty(b *testing.B) {
	f := cty.NumberIntVal(742).AsBigFloat()
	for b.Loop() {
		_ = numberFromCty(f)
	}
}
