package pulumirpc

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
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
	str := provider.Type{Kind: provider.TypeString}
	integer := provider.Type{Kind: provider.TypeInteger}
	anyT := provider.Type{Kind: provider.TypeAny}
	rule := provider.Type{Kind: provider.TypeObject, Properties: map[string]provider.Property{"days": {Type: integer, Required: true}}}
	node := provider.Type{Kind: provider.TypeObject, Properties: map[string]provider.Property{"next": {Type: anyT}}}
	want := &provider.Schema{
		Name: "acme", Version: "2.1.0",
		Config: map[string]provider.Property{
			"region": {Type: str, Description: "Where things live.", Required: true},
			"token":  {Type: str, Secret: true},
		},
		Resources: map[string]provider.ResourceSchema{"acme:index:Bucket": {
			Description: "A bucket.",
			Inputs: map[string]provider.Property{
				"name":  {Type: str, Required: true, ReplaceOnChanges: true},
				"tags":  {Type: provider.Type{Kind: provider.TypeMap, Elem: &str}},
				"rules": {Type: provider.Type{Kind: provider.TypeArray, Elem: &rule}},
				"tier":  {Type: str},
				"site":  {Type: provider.Type{Kind: provider.TypeArchive}},
				"index": {Type: provider.Type{Kind: provider.TypeAsset}},
				"extra": {Type: anyT},
				"node":  {Type: node},
			},
			Outputs: map[string]provider.Property{
				"name":   {Type: str, Required: true},
				"arn":    {Type: str, Required: true},
				"size":   {Type: integer},
				"ratio":  {Type: provider.Type{Kind: provider.TypeNumber}},
				"public": {Type: provider.Type{Kind: provider.TypeBool}},
			},
		}},
		Functions: map[string]provider.FunctionSchema{"acme:index:getBucket": {
			Inputs:  map[string]provider.Property{"name": {Type: str, Required: true}},
			Outputs: map[string]provider.Property{"arn": {Type: str}},
		}},
	}
	if diff := cmp.Diff(want, spec.toSchema()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
