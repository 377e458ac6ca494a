package pulumirpc

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/schema"
)

func TestPackageSchema(t *testing.T) {
	b, err := os.ReadFile("testdata/schema/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var spec packageSpec
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	str := schema.Type{Kind: schema.TypeString}
	integer := schema.Type{Kind: schema.TypeInteger}
	anyT := schema.Type{Kind: schema.TypeAny}
	rule := schema.Type{Kind: schema.TypeObject, Properties: map[string]schema.Property{"days": {Type: integer, Required: true}}}
	node := schema.Type{Kind: schema.TypeObject, Properties: map[string]schema.Property{"next": {Type: anyT}}}
	want := &schema.Schema{
		Name: "acme", Version: "2.1.0",
		Config: map[string]schema.Property{
			"region": {Type: str, Description: "Where things live.", Required: true},
			"token":  {Type: str, Secret: true},
		},
		Resources: map[string]schema.ResourceSchema{"acme:index:Bucket": {
			Description: "A bucket.",
			Inputs: map[string]schema.Property{
				"name":  {Type: str, Required: true, ReplaceOnChanges: true},
				"tags":  {Type: schema.Type{Kind: schema.TypeMap, Elem: &str}},
				"rules": {Type: schema.Type{Kind: schema.TypeArray, Elem: &rule}},
				"tier":  {Type: str},
				"site":  {Type: schema.Type{Kind: schema.TypeArchive}},
				"index": {Type: schema.Type{Kind: schema.TypeAsset}},
				"extra": {Type: anyT},
				"node":  {Type: node},
			},
			Outputs: map[string]schema.Property{
				"name":   {Type: str, Required: true},
				"arn":    {Type: str, Required: true},
				"size":   {Type: integer},
				"ratio":  {Type: schema.Type{Kind: schema.TypeNumber}},
				"public": {Type: schema.Type{Kind: schema.TypeBool}},
			},
		}},
		Functions: map[string]schema.FunctionSchema{"acme:index:getBucket": {
			Inputs:  map[string]schema.Property{"name": {Type: str, Required: true}},
			Outputs: map[string]schema.Property{"arn": {Type: str}},
		}},
	}
	if diff := cmp.Diff(want, spec.toSchema()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
