package tfplugin

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestPlannedState: a plan answered with the prior state's own bytes is
// the prior state (not decoded again, and said to be unchanged, so Diff
// needs no comparison); any other answer is decoded.
func TestPlannedState(t *testing.T) {
	ty := petBlock().impliedType()
	pet := func(id string, length int64) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"id": cty.StringVal(id), "keepers": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
			"length": cty.NumberIntVal(length), "prefix": cty.NullVal(cty.String), "separator": cty.StringVal("-")})
	}
	enc := func(v cty.Value) dynamicValue {
		dv, err := encode(v, ty)
		mustOK(t, "encode", err)
		return dv
	}
	prior := pet("proud-cat", 2)
	tests := map[string]struct {
		planned  dynamicValue
		want     cty.Value
		wantSame bool
	}{
		"the prior state's bytes": {enc(prior), prior, true},
		"a changed state":         {enc(pet("proud-cat", 3)), pet("proud-cat", 3), false},
		"the same state, as JSON": {dynamicValue{json: []byte(`{"id":"proud-cat","keepers":{"k":"v"},"length":2,"prefix":null,"separator":"-"}`)}, prior, false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got, same, err := plannedState(tt.planned, enc(prior), prior, ty)
			mustOK(t, "plannedState", err)
			if same != tt.wantSame || !got.RawEquals(tt.want) {
				t.Errorf("plannedState = %#v, same %v; want %#v, same %v", got, same, tt.want, tt.wantSame)
			}
		})
	}
}
