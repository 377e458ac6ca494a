package tfstate

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestPathForms: a secret below a map key is written so that terraform
// finds it whether the attribute is a map (an index step, as terraform
// writes random_id's keepers["a"]) or an object (a get_attr step);
// a top-level attribute and an attribute of a nested block's element
// are written once.
func TestPathForms(t *testing.T) {
	const (
		keepers = `{"type":"get_attr","value":"keepers"}`
		attrA   = `{"type":"get_attr","value":"a"}`
		indexA  = `{"type":"index","value":{"type":"string","value":"a"}}`
		attrB   = `{"type":"get_attr","value":"b"}`
		indexB  = `{"type":"index","value":{"type":"string","value":"b"}}`
		zero    = `{"type":"index","value":{"type":"number","value":0}}`
		attrS   = `{"type":"get_attr","value":"s"}`
	)
	cases := map[string]struct {
		path resource.PropertyPath
		want []string
	}{
		"attribute":         {resource.PropertyPath{"keepers"}, []string{"[" + keepers + "]"}},
		"map key or object": {resource.PropertyPath{"keepers", "a"}, []string{"[" + keepers + "," + attrA + "]", "[" + keepers + "," + indexA + "]"}},
		"nested block":      {resource.PropertyPath{"keepers", 0, "s"}, []string{"[" + keepers + "," + zero + "," + attrS + "]"}},
		"two ambiguous steps": {resource.PropertyPath{"keepers", "a", "b"}, []string{
			"[" + keepers + "," + attrA + "," + attrB + "]", "[" + keepers + "," + indexA + "," + attrB + "]",
			"[" + keepers + "," + attrA + "," + indexB + "]", "[" + keepers + "," + indexA + "," + indexB + "]"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, f := range pathForms(c.path) {
				b, err := json.Marshal(f)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, string(b))
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("paths (-want +got):\n%s", diff)
			}
		})
	}
}

// sensitiveKeyState is terraform 1.11's state of a random_id whose
// keepers["a"] came from a sensitive variable.
const sensitiveKeyState = `{"version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "l", "outputs": {},
 "resources": [{"mode": "managed", "type": "random_id", "name": "r", "provider": "provider[\"registry.terraform.io/hashicorp/random\"]",
  "instances": [{"schema_version": 0, "attributes": {"id": "5vc-eA", "b64_std": "5vc+eA==", "b64_url": "5vc-eA", "byte_length": 4,
   "dec": "3871829624", "hex": "e6f73e78", "keepers": {"a": "x", "b": "plain"}, "prefix": null},
   "sensitive_attributes": [[{"type": "get_attr", "value": "keepers"}, {"type": "index", "value": {"value": "a", "type": "string"}}]]}]}]}`

// TestExportSensitiveMapKey: an adopted sensitive map key is exported
// with terraform's own path among those written, and nothing else of
// the value is sensitive.
func TestExportSensitiveMapKey(t *testing.T) {
	snap, _ := adopt(t, []byte(sensitiveKeyState))
	st, _, err := FromSnapshot(snap, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []any
	if err := json.Unmarshal(st.Resources[0].Instances[0].SensitiveAttributes, &got); err != nil {
		t.Fatal(err)
	}
	var orig struct {
		Resources []struct {
			Instances []struct {
				Sensitive []any `json:"sensitive_attributes"`
			}
		}
	}
	if err := json.Unmarshal([]byte(sensitiveKeyState), &orig); err != nil {
		t.Fatal(err)
	}
	want := orig.Resources[0].Instances[0].Sensitive[0]
	found := false
	for _, p := range got {
		found = found || cmp.Equal(p, want)
		if steps := p.([]any); len(steps) != 2 || !cmp.Equal(steps[0], want.([]any)[0]) {
			t.Errorf("sensitive path %v names more than keepers' key a", p)
		}
	}
	if !found {
		t.Errorf("sensitive paths %v lack terraform's %v", got, want)
	}
}

// TestExportTerraformDataSensitivity: terraform_data is sensitive where
// its arguments were (input.a), not as a whole as plinth's built-in
// provider records input and output, and its output is never marked, as
// in terraform's state; an input the record's arguments no longer hold
// keeps the attribute's own marks.
func TestExportTerraformDataSensitivity(t *testing.T) {
	secret := resource.MakeSecret(resource.NewString("x"))
	arg := resource.NewObject(resource.Object{"a": secret, "b": resource.NewString("plain")})
	whole := resource.MakeSecret(resource.NewObject(resource.Object{"a": resource.NewString("x"), "b": resource.NewString("plain")}))
	cases := map[string]struct {
		inputs resource.Object
		want   []string
	}{
		"the argument's paths": {inputs: resource.Object{"input": arg},
			want: []string{`[{"type":"get_attr","value":"input"},{"type":"get_attr","value":"a"}]`,
				`[{"type":"get_attr","value":"input"},{"type":"index","value":{"type":"string","value":"a"}}]`}},
		"no argument recorded": {inputs: resource.Object{},
			want: []string{`[{"type":"get_attr","value":"input"}]`}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			snap, _ := adopt(t, []byte(terraformDataState))
			for _, r := range snap.Resources {
				if r.Type == "terraform:index:terraform_data" {
					r.Inputs, r.Outputs["input"], r.Outputs["output"] = c.inputs, whole, whole
				}
			}
			st, _, err := FromSnapshot(snap, ExportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var paths []json.RawMessage
			if err := json.Unmarshal(st.Resources[0].Instances[0].SensitiveAttributes, &paths); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range paths {
				got = append(got, string(p))
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("sensitive paths (-want +got):\n%s", diff)
			}
		})
	}
}
