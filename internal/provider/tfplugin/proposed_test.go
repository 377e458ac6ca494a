package tfplugin

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// testBlock is a schema with one of everything: attributes required,
// optional, computed, optional+computed, write-only, sensitive, a protocol 6
// nested attribute, and nested blocks in every nesting mode.
func testBlock() *block {
	str := func(required, optional, computed bool) *attribute {
		return &attribute{typ: cty.String, required: required, optional: optional, computed: computed}
	}
	inner := &block{attributes: map[string]*attribute{"key": str(false, true, false), "gen": str(false, false, true)}}
	return &block{
		attributes: map[string]*attribute{
			"name":     str(true, false, false),
			"id":       str(false, false, true),
			"size":     {typ: cty.Number, optional: true, computed: true},
			"password": {typ: cty.String, optional: true, writeOnly: true},
			"token":    {typ: cty.String, computed: true, sensitive: true},
			"rules": {optional: true, nested: &object{nesting: nestingList, attributes: map[string]*attribute{
				"port": {typ: cty.Number, optional: true, computed: true}, "name": str(true, false, false),
			}}},
		},
		blocks: map[string]*nestedBlock{
			"disk":   {nesting: nestingList, block: inner},
			"opt":    {nesting: nestingSet, block: inner},
			"meta":   {nesting: nestingMap, block: inner},
			"single": {nesting: nestingSingle, block: inner},
			"group":  {nesting: nestingGroup, block: inner},
		},
	}
}

var innerType = cty.Object(map[string]cty.Type{"key": cty.String, "gen": cty.String})

func inner(key, gen string) cty.Value {
	v := func(s string) cty.Value {
		if s == "" {
			return cty.NullVal(cty.String)
		}
		return cty.StringVal(s)
	}
	return cty.ObjectVal(map[string]cty.Value{"key": v(key), "gen": v(gen)})
}

var ruleObj = cty.Object(map[string]cty.Type{"port": cty.Number, "name": cty.String})

func rule(name string, port cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "port": port})
}

// value builds a testBlock value from the given attributes, the rest null
// (empty for collections of blocks, an all-null group).
func value(attrs map[string]cty.Value) cty.Value {
	ty := testBlock().impliedType()
	out := map[string]cty.Value{}
	for name, aty := range ty.AttributeTypes() {
		switch {
		case attrs[name] != cty.NilVal:
			out[name] = attrs[name]
		case name == "disk":
			out[name] = cty.ListValEmpty(innerType)
		case name == "opt":
			out[name] = cty.SetValEmpty(innerType)
		case name == "meta":
			out[name] = cty.MapValEmpty(innerType)
		case name == "group":
			out[name] = inner("", "")
		default:
			out[name] = cty.NullVal(aty)
		}
	}
	return cty.ObjectVal(out)
}

func TestProposedNew(t *testing.T) {
	tests := map[string]struct {
		prior, config, want cty.Value
	}{
		"create keeps computed null": {
			prior:  cty.NullVal(testBlock().impliedType()),
			config: value(map[string]cty.Value{"name": cty.StringVal("n")}),
			want:   value(map[string]cty.Value{"name": cty.StringVal("n")}),
		},
		"computed attributes keep prior values": {
			prior:  value(map[string]cty.Value{"name": cty.StringVal("a"), "id": cty.StringVal("i"), "size": cty.NumberIntVal(3), "token": cty.StringVal("t")}),
			config: value(map[string]cty.Value{"name": cty.StringVal("b")}),
			want:   value(map[string]cty.Value{"name": cty.StringVal("b"), "id": cty.StringVal("i"), "size": cty.NumberIntVal(3), "token": cty.StringVal("t")}),
		},
		"configured optional+computed wins": {
			prior:  value(map[string]cty.Value{"size": cty.NumberIntVal(3)}),
			config: value(map[string]cty.Value{"size": cty.NumberIntVal(5)}),
			want:   value(map[string]cty.Value{"size": cty.NumberIntVal(5)}),
		},
		"unknown config stays unknown": {
			prior:  value(map[string]cty.Value{"size": cty.NumberIntVal(3), "name": cty.StringVal("a")}),
			config: value(map[string]cty.Value{"size": cty.UnknownVal(cty.Number), "name": cty.UnknownVal(cty.String)}),
			want:   value(map[string]cty.Value{"size": cty.UnknownVal(cty.Number), "name": cty.UnknownVal(cty.String)}),
		},
		"write-only is never proposed": {
			prior:  value(nil),
			config: value(map[string]cty.Value{"password": cty.StringVal("p")}),
			want:   value(nil),
		},
		"list blocks match by index": {
			prior:  value(map[string]cty.Value{"disk": cty.ListVal([]cty.Value{inner("a", "1"), inner("b", "2")})}),
			config: value(map[string]cty.Value{"disk": cty.ListVal([]cty.Value{inner("x", ""), inner("b", ""), inner("c", "")})}),
			want:   value(map[string]cty.Value{"disk": cty.ListVal([]cty.Value{inner("x", "1"), inner("b", "2"), inner("c", "")})}),
		},
		"set blocks match by identity": {
			prior:  value(map[string]cty.Value{"opt": cty.SetVal([]cty.Value{inner("a", "1"), inner("b", "2")})}),
			config: value(map[string]cty.Value{"opt": cty.SetVal([]cty.Value{inner("b", ""), inner("c", "")})}),
			want:   value(map[string]cty.Value{"opt": cty.SetVal([]cty.Value{inner("b", "2"), inner("c", "")})}),
		},
		"map blocks match by key": {
			prior:  value(map[string]cty.Value{"meta": cty.MapVal(map[string]cty.Value{"k": inner("a", "1"), "gone": inner("z", "9")})}),
			config: value(map[string]cty.Value{"meta": cty.MapVal(map[string]cty.Value{"k": inner("a", ""), "new": inner("n", "")})}),
			want:   value(map[string]cty.Value{"meta": cty.MapVal(map[string]cty.Value{"k": inner("a", "1"), "new": inner("n", "")})}),
		},
		"single and group blocks recurse": {
			prior:  value(map[string]cty.Value{"single": inner("a", "1"), "group": inner("g", "2")}),
			config: value(map[string]cty.Value{"single": inner("b", ""), "group": inner("h", "")}),
			want:   value(map[string]cty.Value{"single": inner("b", "1"), "group": inner("h", "2")}),
		},
		"removed single block is null": {
			prior:  value(map[string]cty.Value{"single": inner("a", "1")}),
			config: value(nil),
			want:   value(nil),
		},
		"nested attributes match by index": {
			prior:  value(map[string]cty.Value{"rules": cty.ListVal([]cty.Value{rule("web", cty.NumberIntVal(80))})}),
			config: value(map[string]cty.Value{"rules": cty.ListVal([]cty.Value{rule("web", cty.NullVal(cty.Number)), rule("alt", cty.NullVal(cty.Number))})}),
			want:   value(map[string]cty.Value{"rules": cty.ListVal([]cty.Value{rule("web", cty.NumberIntVal(80)), rule("alt", cty.NullVal(cty.Number))})}),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := proposedNew(testBlock(), tc.prior, tc.config)
			if !got.RawEquals(tc.want) {
				t.Errorf("proposed new state:\n got %s\nwant %s", fromCty(got), fromCty(tc.want))
			}
		})
	}
}
