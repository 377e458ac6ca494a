package hcl

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestGenerateConfig: required and set optional attributes are written,
// null optional and computed-only ones left out, secrets masked, nested
// objects written as blocks.
func TestGenerateConfig(t *testing.T) {
	str := schema.Type{Kind: schema.TypeString}
	num := schema.Type{Kind: schema.TypeInteger}
	sch := schema.ResourceSchema{
		Inputs: map[string]schema.Property{
			"byte_length": {Type: num, Required: true},
			"prefix":      {Type: str},
			"keepers":     {Type: schema.Type{Kind: schema.TypeMap, Elem: &str}},
			"token":       {Type: str, Secret: true},
			"rule": {Type: schema.Type{Kind: schema.TypeArray, Elem: &schema.Type{Kind: schema.TypeObject,
				Properties: map[string]schema.Property{"port": {Type: num, Required: true}}}}},
		},
		Outputs: map[string]schema.Property{"hex": {Type: str}, "id": {Type: str}},
	}
	attrs := resource.Object{
		"byte_length": resource.NewNumber(8), "prefix": resource.NewString("x-"), "keepers": resource.Null(),
		"token": resource.MakeSecret(resource.NewString("s3cret")), "hex": resource.NewString("abcd"), "id": resource.NewString("q83v"),
		"rule": resource.NewArray(resource.NewObject(resource.Object{"port": resource.NewNumber(80)})),
	}
	got := string(GenerateConfig([]Imported{{Type: "random_id", Name: "r", ID: "q83v", Attributes: attrs, Schema: sch}}))
	want := GeneratedHeader + `
# __generated__ by Plinth from "q83v"
resource "random_id" "r" {
  byte_length = 8
  prefix      = "x-"
  token       = null # sensitive
  rule {
    port = 80
  }
}
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("generated (-want +got):\n%s", diff)
	}
}
