package tfplugin

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// petBlock is random_pet's schema: what every create and plan of the
// 2,000-resource benchmark checks.
func petBlock() *block {
	return &block{attributes: map[string]*attribute{
		"id":        {typ: cty.String, computed: true},
		"keepers":   {typ: cty.Map(cty.String), optional: true},
		"length":    {typ: cty.Number, optional: true, computed: true},
		"prefix":    {typ: cty.String, optional: true},
		"separator": {typ: cty.String, optional: true, computed: true},
	}}
}

// TestPerResourceChecksAllocate bounds the allocations of the checks run
// on every resource's plan and apply when they find nothing: a valid
// create plan (an unknown id, defaults for what the configuration leaves
// null), and an apply result that keeps the plan's promise. They
// allocated for each attribute the plan changed (a path, and three maps
// to unmark values that had no marks), for each attribute they compared
// (a path, integers made of equal numbers), and walked the new state
// making a path per value to find unknowns it did not have.
func TestPerResourceChecksAllocate(t *testing.T) {
	b := petBlock()
	ty := b.impliedType()
	config := cty.ObjectVal(map[string]cty.Value{
		"id": cty.NullVal(cty.String), "keepers": cty.NullVal(cty.Map(cty.String)), "length": cty.NumberIntVal(2),
		"prefix": cty.NullVal(cty.String), "separator": cty.NullVal(cty.String)})
	plan := cty.ObjectVal(map[string]cty.Value{
		"id": cty.UnknownVal(cty.String), "keepers": cty.NullVal(cty.Map(cty.String)), "length": cty.NumberIntVal(2),
		"prefix": cty.NullVal(cty.String), "separator": cty.StringVal("-")})
	state := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("proud-cat"), "keepers": cty.NullVal(cty.Map(cty.String)), "length": cty.NumberIntVal(2),
		"prefix": cty.NullVal(cty.String), "separator": cty.StringVal("-")})
	prior := cty.NullVal(ty)
	tests := map[string]struct {
		run func() bool // true if the check found nothing
		max float64
	}{
		"a valid plan": {func() bool {
			c := planChecker{}
			c.block(nil, b, prior, config, plan)
			return len(c.found) == 0
		}, 4}, // cty's comparison of equal numbers makes integers of them
		// cty's own: the iterator's sorted names, a key per attribute,
		// the numbers.
		"a kept promise": {func() bool { return len(compatible(plan, state)) == 0 }, 13},
		"no unknowns":    {func() bool { return len(unknownPaths(state)) == 0 }, 0},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if !tt.run() {
				t.Fatal("the check found a problem in a valid value")
			}
			if n := testing.AllocsPerRun(100, func() { tt.run() }); n > tt.max {
				t.Errorf("%s: %.0f allocations, want at most %.0f", name, n, tt.max)
			}
		})
	}
}
