package tfplugin

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	plschema "github.com/plinth-iac/plinth/internal/schema"
)

// TestPropertiesKeepBlocksAndSets: the translated schema says which
// properties are nested blocks, which arrays are sets (attributes,
// nested attributes and blocks alike) and which objects hold nested
// attributes, which a plan's display needs to show them as terraform
// does.
func TestPropertiesKeepBlocksAndSets(t *testing.T) {
	inner := &block{attributes: map[string]*attribute{"port": {typ: cty.Number, optional: true}}}
	b := &block{
		attributes: map[string]*attribute{
			"tags":  {typ: cty.Set(cty.String), optional: true},
			"order": {typ: cty.List(cty.String), optional: true},
			"nested": {nested: &object{nesting: nestingSet, attributes: map[string]*attribute{
				"x": {typ: cty.String, optional: true}}}, optional: true},
		},
		blocks: map[string]*nestedBlock{
			"rule":    {nesting: nestingSet, block: inner},
			"disk":    {nesting: nestingList, block: inner},
			"subject": {nesting: nestingSingle, block: inner},
		},
	}
	type shape struct {
		Kind               plschema.TypeKind
		Block, Set, Nested bool
	}
	got := map[string]shape{}
	for name, p := range properties(b, false) {
		nested := p.Type.Nested || p.Type.Elem != nil && p.Type.Elem.Nested
		got[name] = shape{p.Type.Kind, p.Block, p.Type.Set, nested}
	}
	want := map[string]shape{
		"tags":    {plschema.TypeArray, false, true, false},
		"order":   {plschema.TypeArray, false, false, false},
		"nested":  {plschema.TypeArray, false, true, true},
		"rule":    {plschema.TypeArray, true, true, false},
		"disk":    {plschema.TypeArray, true, false, false},
		"subject": {plschema.TypeObject, true, false, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
