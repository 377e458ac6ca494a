package tfplugin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/provider"
)

// planBlock has what a plan can get wrong: a required string, a map of
// any values, an optional computed number, a computed ID, a write-only
// string, a protocol 6 nested list and a nested block list.
func planBlock() *block {
	inner := &block{attributes: map[string]*attribute{
		"key": {typ: cty.String, optional: true}, "gen": {typ: cty.String, optional: true, computed: true}}}
	return &block{
		attributes: map[string]*attribute{
			"mode":    {typ: cty.String, required: true},
			"keepers": {typ: cty.Map(cty.DynamicPseudoType), optional: true},
			"size":    {typ: cty.Number, optional: true, computed: true},
			"id":      {typ: cty.String, computed: true},
			"secret":  {typ: cty.String, optional: true, writeOnly: true},
			"rules": {optional: true, nested: &object{nesting: nestingList, attributes: map[string]*attribute{
				"port": {typ: cty.Number, optional: true, computed: true}, "name": {typ: cty.String, required: true}}}},
		},
		blocks: map[string]*nestedBlock{"disk": {nesting: nestingList, block: inner}},
	}
}

// planValue builds a planBlock value: mode "600", the rest null or empty,
// then attrs.
func planValue(attrs map[string]cty.Value) cty.Value {
	ty := planBlock().impliedType()
	out := map[string]cty.Value{}
	for name, aty := range ty.AttributeTypes() {
		out[name] = cty.NullVal(aty)
	}
	out["mode"] = cty.StringVal("600")
	out["disk"] = cty.ListValEmpty(ty.AttributeType("disk").ElementType())
	for k, v := range attrs {
		out[k] = v
	}
	return cty.ObjectVal(out)
}

func TestInvalidPlan(t *testing.T) {
	str, num := cty.StringVal, cty.NumberIntVal
	rules := func(name string, port cty.Value) cty.Value {
		return cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"name": str(name), "port": port})})
	}
	disk := func(key, gen cty.Value) cty.Value {
		return cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"key": key, "gen": gen})})
	}
	nullStr, nullNum := cty.NullVal(cty.String), cty.NullVal(cty.Number)
	tests := map[string]struct {
		prior, config, plan map[string]cty.Value // nil prior: a create
		want                []string             // paths reported
	}{
		"as configured": {config: map[string]cty.Value{}, plan: map[string]cty.Value{"id": cty.UnknownVal(cty.String)}},
		"unknown keeps its type": {
			config: map[string]cty.Value{"keepers": cty.MapVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String)})},
			plan:   map[string]cty.Value{"keepers": cty.MapVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String)})}},
		"unknown loses its type": {
			config: map[string]cty.Value{"keepers": cty.MapVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String)})},
			plan:   map[string]cty.Value{"keepers": cty.MapVal(map[string]cty.Value{"a": cty.DynamicVal})},
			want:   []string{"keepers"}},
		"normalised": {config: map[string]cty.Value{}, plan: map[string]cty.Value{"mode": str("0600")}, want: []string{"mode"}},
		"prior kept": {prior: map[string]cty.Value{"mode": str("0600")}, config: map[string]cty.Value{},
			plan: map[string]cty.Value{"mode": str("0600")}},
		"computed default": {config: map[string]cty.Value{}, plan: map[string]cty.Value{"size": num(3)}},
		"not computed":     {config: map[string]cty.Value{}, plan: map[string]cty.Value{"keepers": cty.MapValEmpty(cty.String)}, want: []string{"keepers"}},
		"nested default": {config: map[string]cty.Value{"rules": rules("a", nullNum)},
			plan: map[string]cty.Value{"rules": rules("a", num(80))}},
		"nested changed": {config: map[string]cty.Value{"rules": rules("a", nullNum)},
			plan: map[string]cty.Value{"rules": rules("b", nullNum)}, want: []string{"rules[0].name"}},
		"block default": {config: map[string]cty.Value{"disk": disk(str("k"), nullStr)},
			plan: map[string]cty.Value{"disk": disk(str("k"), str("g"))}},
		"write-only planned null": {config: map[string]cty.Value{"secret": str("hunter2")},
			plan: map[string]cty.Value{"secret": nullStr}},
		"write-only planned as configured": {config: map[string]cty.Value{"secret": str("hunter2")},
			want: []string{"secret"}},
		"write-only planned unasked": {config: map[string]cty.Value{},
			plan: map[string]cty.Value{"secret": str("x")}, want: []string{"secret"}},
		"block changed": {config: map[string]cty.Value{"disk": disk(str("k"), nullStr)},
			plan: map[string]cty.Value{"disk": disk(str("K"), nullStr)}, want: []string{"disk[0].key"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			prior := cty.NullVal(planBlock().impliedType())
			if tt.prior != nil {
				prior = planValue(tt.prior)
			}
			c := planChecker{}
			config := planValue(tt.config)
			plan := planValue(tt.config)
			for k, v := range tt.plan {
				plan = setAttr(plan, k, v)
			}
			c.block(nil, planBlock(), prior, config, plan)
			var got []string
			for _, f := range c.found {
				got = append(got, f[:strings.Index(f, ":")])
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("reported (-want +got):\n%s\n%v", d, c.found)
			}
		})
	}
}

func setAttr(obj cty.Value, name string, v cty.Value) cty.Value {
	m := obj.AsValueMap()
	m[name] = v
	return cty.ObjectVal(m)
}

// The message names the types of unknowns: what tells an unknown string
// from an unknown of any type.
func TestInvalidPlanMessageNamesTypes(t *testing.T) {
	c := planChecker{}
	config := planValue(map[string]cty.Value{"keepers": cty.MapVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String)})})
	plan := setAttr(config, "keepers", cty.MapVal(map[string]cty.Value{"a": cty.DynamicVal}))
	c.block(nil, planBlock(), cty.NullVal(planBlock().impliedType()), config, plan)
	want := `keepers: planned a map of dynamic holding an unknown dynamic at keepers.a, but the configuration holds a map of string holding an unknown string at keepers.a`
	if d := cmp.Diff([]string{want}, c.found); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// A provider that plans a configured value other than the configuration
// says is refused before anything is applied, as terraform refuses it.
func TestFaultInvalidPlan(t *testing.T) {
	p := startFake(t, modeNormalise)
	_, err := p.Create(context.Background(), provider.CreateRequest{URN: urn("fake_thing", "t"), Inputs: obj(map[string]any{"value": "a"})})
	var inv *InvalidPlanError
	if !errors.As(err, &inv) {
		t.Fatalf("Create error = %v, want an InvalidPlanError", err)
	}
	want := &InvalidPlanError{Provider: "fake", Operation: `Create of fake_thing "t"`,
		Attributes: []string{`value: planned "A", but the configuration holds "a"`}}
	if d := cmp.Diff(want, inv); d != "" {
		t.Errorf("error (-want +got):\n%s", d)
	}
}
