package hcl

import (
	"github.com/google/go-cmp/cmp"
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

// TestBlocksHaveTheirSchemaType: a list or a map of nested blocks (or of
// nested objects) is typed by the schema, as terraform types it:
// tls_self_signed_cert's subject is a list(object({...})) with every
// attribute, not a tuple of objects with the attributes that happen to
// be set, so an output of it records terraform's type and an exported
// state plans clean. A part of no known type keeps the value's type.
func TestBlocksHaveTheirSchemaType(t *testing.T) {
	str := schema.Type{Kind: schema.TypeString}
	subject := schema.Type{Kind: schema.TypeObject, Properties: map[string]schema.Property{
		"common_name":    {Type: str},
		"country":        {Type: str},
		"street_address": {Type: schema.Type{Kind: schema.TypeArray, Elem: &str}},
		"free":           {Type: schema.Type{Kind: schema.TypeAny}},
	}}
	props := map[string]schema.Property{
		"subject": {Type: schema.Type{Kind: schema.TypeArray, Elem: &subject}},
		"empty":   {Type: schema.Type{Kind: schema.TypeArray, Elem: &subject}},
		"by_name": {Type: schema.Type{Kind: schema.TypeMap, Elem: &subject}},
		"tuple":   {Type: schema.Type{Kind: schema.TypeArray, Elem: &schema.Type{Kind: schema.TypeAny}}},
	}
	block := resource.NewObject(resource.Object{
		"common_name":    resource.NewString("api"),
		"street_address": resource.NewArray(resource.NewString("a")),
		"free":           resource.NewNumber(1),
	})
	v := typedObject(resource.Object{
		"subject": resource.NewArray(block),
		"empty":   resource.NewArray(),
		"by_name": resource.NewObject(resource.Object{"x": block}),
		"tuple":   resource.NewArray(resource.NewString("a"), resource.NewNumber(1)),
	}, props)
	subjectT := cty.Object(map[string]cty.Type{
		"common_name": cty.String, "country": cty.String, "street_address": cty.List(cty.String), "free": cty.Number,
	})
	want := map[string]string{
		"subject": cty.List(subjectT).GoString(),
		"empty":   cty.List(cty.Object(map[string]cty.Type{"common_name": cty.String, "country": cty.String, "street_address": cty.List(cty.String), "free": cty.DynamicPseudoType})).GoString(),
		"by_name": cty.Map(subjectT).GoString(),
		"tuple":   cty.Tuple([]cty.Type{cty.String, cty.Number}).GoString(),
	}
	got := map[string]string{}
	for name := range want {
		got[name] = v.GetAttr(name).Type().GoString()
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("attribute types (-want +got):\n%s", diff)
	}
	if c := v.GetAttr("subject").Index(cty.NumberIntVal(0)).GetAttr("country"); !c.IsNull() {
		t.Errorf("an unset block attribute is %#v, want null", c)
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

// TestArgTypedKeepsValuesItDoesNotType: a terraform_data whose input is
// not given (triggers_replace alone, as in a stamp of another resource)
// has nothing to type; its value is returned as it is, not taken apart
// and built again for every instance.
func TestArgTypedKeepsValuesItDoesNotType(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("1"), "input": cty.NullVal(cty.DynamicPseudoType), "output": cty.NullVal(cty.DynamicPseudoType),
		"triggers_replace": cty.StringVal("pet")})
	args := map[string]cty.Value{"triggers_replace": cty.StringVal("pet")}
	var got cty.Value
	allocs := testing.AllocsPerRun(50, func() { got = argTyped(v, "terraform_data", args) })
	if !got.RawEquals(v) {
		t.Errorf("argTyped = %#v, want %#v", got, v)
	}
	if allocs > 0 {
		t.Errorf("argTyped allocated %v times for a value it leaves alone, want none", allocs)
	}
	list := cty.ListVal([]cty.Value{cty.StringVal("10.0.0.0/24")})
	typed := argTyped(cty.ObjectVal(map[string]cty.Value{"output": cty.TupleVal([]cty.Value{cty.StringVal("10.0.0.0/24")})}),
		"terraform_data", map[string]cty.Value{"input": list})
	if want := cty.List(cty.String); !typed.GetAttr("output").Type().Equals(want) {
		t.Errorf("output typed %s, want %s", typed.GetAttr("output").Type().FriendlyName(), want.FriendlyName())
	}
}
