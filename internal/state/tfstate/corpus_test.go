package tfstate

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// terraformDataState is terraform 1.11's state of a terraform_data with
// an object input, on the built-in provider, and two outputs whose types
// the values alone do not tell: a list and an empty map.
const terraformDataState = `{"version": 4, "terraform_version": "1.11.4", "serial": 3, "lineage": "lin",
 "outputs": {"names": {"value": ["X", "Y"], "type": ["list", "string"]}, "tags": {"value": {}, "type": ["map", "string"]}},
 "resources": [{"mode": "managed", "type": "terraform_data", "name": "d", "provider": "provider[\"terraform.io/builtin/terraform\"]",
  "instances": [{"schema_version": 0, "attributes": {"id": "abc", "input": {"value": {"n": 2, "t": "x"}, "type": ["object", {"n": "number", "t": "string"}]},
   "output": {"value": {"n": 2, "t": "x"}, "type": ["object", {"n": "number", "t": "string"}]}, "triggers_replace": null}, "sensitive_attributes": []}]}]}`

// TestTerraformDataRoundTrip: terraform_data's dynamic attributes are
// stored as plain values, as plinth's built-in provider records them, and
// written back wrapped; the provider is terraform's built-in one; with the
// previous state's output types, a list stays a list and a map a map.
func TestTerraformDataRoundTrip(t *testing.T) {
	snap, _ := adopt(t, []byte(terraformDataState))
	var d resource.Object
	for _, r := range snap.Resources {
		if r.Type == "terraform:index:terraform_data" {
			d = r.Outputs
		}
	}
	if d == nil {
		t.Fatal("terraform_data.d was not adopted")
	}
	want := resource.NewObject(resource.Object{"n": resource.NewNumber(2), "t": resource.NewString("x")})
	if !d["input"].Equal(want) {
		t.Errorf("input is stored as %v, want the plain value %v", d["input"], want)
	}
	prev, err := Parse([]byte(terraformDataState))
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]json.RawMessage{}
	for n, o := range prev.Outputs {
		types[n] = o.Type
	}
	st, _, err := FromSnapshot(snap, ExportOptions{OutputTypes: types})
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Resources[0].Provider; got != `provider["terraform.io/builtin/terraform"]` {
		t.Errorf("provider = %s, want terraform's built-in provider", got)
	}
	var attrs map[string]any
	if err := json.Unmarshal(st.Resources[0].Instances[0].Attributes, &attrs); err != nil {
		t.Fatal(err)
	}
	wantInput := map[string]any{"value": map[string]any{"n": 2.0, "t": "x"}, "type": []any{"object", map[string]any{"n": "number", "t": "string"}}}
	if diff := cmp.Diff(wantInput, attrs["input"]); diff != "" {
		t.Errorf("exported input (-want +got):\n%s", diff)
	}
	if attrs["triggers_replace"] != nil {
		t.Errorf("a null triggers_replace is written as %v, want null", attrs["triggers_replace"])
	}
	for name, ty := range map[string]string{"names": `["list","string"]`, "tags": `["map","string"]`} {
		var got bytes.Buffer
		if err := json.Compact(&got, st.Outputs[name].Type); err != nil || got.String() != ty {
			t.Errorf("output %s has type %s, want the previous state's %s", name, st.Outputs[name].Type, ty)
		}
	}
}

// TestOutputTypeConforms: a previous type is kept only while the value
// still has it.
func TestOutputTypeConforms(t *testing.T) {
	strs := resource.NewArray(resource.NewString("a"), resource.NewString("b"))
	mixed := resource.NewArray(resource.NewString("a"), resource.NewNumber(1))
	cases := map[string]struct {
		v        resource.Value
		previous string
		want     string
	}{
		"list kept":               {strs, `["list","string"]`, `["list","string"]`},
		"set kept":                {strs, `["set","string"]`, `["set","string"]`},
		"list no longer fits":     {mixed, `["list","string"]`, `["tuple",["string","number"]]`},
		"no previous":             {strs, ``, `["tuple",["string","string"]]`},
		"map kept":                {resource.NewObject(resource.Object{"a": resource.NewString("x")}), `["map","string"]`, `["map","string"]`},
		"string became a number":  {resource.NewNumber(1), `"string"`, `"number"`},
		"secret list kept":        {resource.MakeSecret(strs), `["list","string"]`, `["list","string"]`},
		"object with other attrs": {resource.NewObject(resource.Object{"b": resource.NewBool(true)}), `["object",{"a":"bool"}]`, `["object",{"b":"bool"}]`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if got := string(outputType(c.v, json.RawMessage(c.previous))); got != c.want {
				t.Errorf("outputType = %s, want %s", got, c.want)
			}
		})
	}
}

// TestExportRecordedOutputTypes: the types plinth's state records for its
// outputs (the Terraform front end's, or an adopted state's) are written
// without a previous state, while the value still has them; a snapshot
// without them (recorded before they were) has its types inferred, and a
// previous state's type wins over a recorded one.
func TestExportRecordedOutputTypes(t *testing.T) {
	strs := resource.NewArray(resource.NewString("a"), resource.NewString("b"))
	tags := resource.NewObject(resource.Object{"env": resource.NewString("dev")})
	list, set, tuple := `["list","string"]`, `["set","string"]`, `["tuple",["string","string"]]`
	mapT, object := `["map","string"]`, `["object",{"env":"string"}]`
	cases := map[string]struct {
		recorded, previous map[string]json.RawMessage
		want               map[string]string
	}{
		"recorded": {
			recorded: map[string]json.RawMessage{"names": json.RawMessage(list), "tags": json.RawMessage(mapT)},
			want:     map[string]string{"names": list, "tags": mapT},
		},
		"none recorded (an older state)": {
			want: map[string]string{"names": tuple, "tags": object},
		},
		"previous wins over recorded": {
			recorded: map[string]json.RawMessage{"names": json.RawMessage(tuple), "tags": json.RawMessage(mapT)},
			previous: map[string]json.RawMessage{"names": json.RawMessage(set)},
			want:     map[string]string{"names": set, "tags": mapT},
		},
		"recorded type the value lacks": {
			recorded: map[string]json.RawMessage{"names": json.RawMessage(`["list","number"]`)},
			want:     map[string]string{"names": tuple, "tags": object},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			snap := &state.Snapshot{Outputs: resource.Object{"names": strs, "tags": tags}, OutputTypes: c.recorded}
			st, _, err := FromSnapshot(snap, ExportOptions{OutputTypes: c.previous})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for n, o := range st.Outputs {
				var b bytes.Buffer
				if err := json.Compact(&b, o.Type); err != nil {
					t.Fatal(err)
				}
				got[n] = b.String()
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("output types (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAdoptKeepsOutputTypes: an adopted state's output types are kept in
// the snapshot, so that its export needs no previous state.
func TestAdoptKeepsOutputTypes(t *testing.T) {
	snap, _ := adopt(t, []byte(terraformDataState))
	st, _, err := FromSnapshot(snap, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for n, o := range st.Outputs {
		var b bytes.Buffer
		if err := json.Compact(&b, o.Type); err != nil {
			t.Fatal(err)
		}
		got[n] = b.String()
	}
	want := map[string]string{"names": `["list","string"]`, "tags": `["map","string"]`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output types after adopt and export (-want +got):\n%s", diff)
	}
}
