package hcl

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestUnknownAttributesHaveTheirSchemaType: a result known only after
// apply is typed by the schema in a preview, as terraform types it, so
// random_string.result != { a = [] } is known to be true in a plan (a
// module that tells a provided input from its default relies on it); a
// known value keeps its own type.
func TestUnknownAttributesHaveTheirSchemaType(t *testing.T) {
	props := map[string]schema.Property{
		"result": {Type: schema.Type{Kind: schema.TypeString}},
		"length": {Type: schema.Type{Kind: schema.TypeNumber}},
		"free":   {Type: schema.Type{Kind: schema.TypeAny}},
	}
	v := typedObject(resource.Object{
		"result": resource.Unknown(),
		"length": resource.NewNumber(2),
		"free":   resource.Unknown(),
	}, props)
	for name, want := range map[string]cty.Type{"result": cty.String, "length": cty.Number, "free": cty.DynamicPseudoType} {
		if got := v.GetAttr(name).Type(); !got.Equals(want) {
			t.Errorf("%s has type %s, want %s", name, got.FriendlyName(), want.FriendlyName())
		}
	}
	other := cty.ObjectVal(map[string]cty.Value{"a": cty.EmptyTupleVal})
	if ne := v.GetAttr("result").NotEqual(other); !ne.IsKnown() || ne.False() {
		t.Errorf("an unknown string != an object = %#v, want a known true", ne)
	}
}

// TestMissingAttributesAreNull: an attribute of the schema that the
// provider's result leaves out (the built-in terraform_data's output when
// its input is null) is a null of its schema type, as in terraform, where
// terraform_data.d.output is null; it was missing, so a reference to it
// failed with "Unsupported attribute".
func TestMissingAttributesAreNull(t *testing.T) {
	props := map[string]schema.Property{
		"id":     {Type: schema.Type{Kind: schema.TypeString}},
		"input":  {Type: schema.Type{Kind: schema.TypeAny}},
		"output": {Type: schema.Type{Kind: schema.TypeAny}},
		"count":  {Type: schema.Type{Kind: schema.TypeNumber}},
	}
	v := typedObject(resource.Object{"id": resource.NewString("x")}, props)
	want := map[string]cty.Value{
		"id":     cty.StringVal("x"),
		"input":  cty.NullVal(cty.DynamicPseudoType),
		"output": cty.NullVal(cty.DynamicPseudoType),
		"count":  cty.NullVal(cty.Number),
	}
	for name, w := range want {
		if !v.Type().HasAttribute(name) {
			t.Errorf("the value has no attribute %q", name)
			continue
		}
		if got := v.GetAttr(name); !got.RawEquals(w) {
			t.Errorf("%s = %#v, want %#v", name, got, w)
		}
	}
}
