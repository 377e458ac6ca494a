package resource

import (
	"testing"
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
