package resource

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJSONNumberDigits: numbers come out of ToJSONData with the digits
// of their decimal expansion (math/big's), whichever path writes them.
func TestJSONNumberDigits(t *testing.T) {
	tests := map[string]struct {
		v    Value
		want string
	}{
		"zero":           {NewNumber(0), "0"},
		"negative zero":  {NewNumber(math.Copysign(0, -1)), "-0"},
		"small":          {NewNumber(2), "2"},
		"negative":       {NewNumber(-17), "-17"},
		"million":        {NewNumber(1e6), "1000000"},
		"2^53-1":         {NewNumber(1<<53 - 1), "9007199254740991"},
		"2^53":           {NewNumber(1 << 53), "9007199254740992"},
		"1e21":           {NewNumber(1e21), "1000000000000000000000"},
		"fraction":       {NewNumber(1.5), "1.5"},
		"tiny":           {NewNumber(1e-7), "1e-07"},
		"literal digits": {mustParse(t, "10000000000000002"), "10000000000000002"},
		"long literal":   {mustParse(t, "123456789012345678901234567890"), "123456789012345678901234567890"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ToJSONData(tc.v, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(json.Number(tc.want), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tc.v.BigNumber().IsInt() {
				if old := tc.v.BigNumber().Text('f', -1); old != tc.want {
					t.Errorf("math/big writes %q, the table says %q", old, tc.want)
				}
			}
		})
	}
}

func mustParse(t *testing.T, literal string) Value {
	t.Helper()
	v, err := ParseNumber(literal)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// BenchmarkToJSONDataNumbers is the state JSON of a resource with a few
// integer attributes, as UpgradeResourceState gets for each resource in
// a plan.
func BenchmarkToJSONDataNumbers(b *testing.B) {
	v := NewObject(Object{"length": NewNumber(2), "id": NewString("brave-cat"), "separator": NewString("-"), "port": NewNumber(8080)})
	for b.Loop() {
		if _, err := ToJSONData(v, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}
