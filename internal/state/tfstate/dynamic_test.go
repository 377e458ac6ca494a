package tfstate

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// netState is what terraform 1.11 writes for terraform_data whose input
// is cidrsubnets(...): a list of strings, not a tuple.
const netState = `{"version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "l",
 "outputs": {}, "resources": [{"mode": "managed", "type": "terraform_data", "name": "net",
 "provider": "provider[\"terraform.io/builtin/terraform\"]", "instances": [{"schema_version": 0,
 "attributes": {"id": "cb7e07dc-a820-fe74-1fe2-a6a2a5b99597",
  "input": {"value": ["10.20.0.0/20", "10.20.32.0/24"], "type": ["list", "string"]},
  "output": {"value": ["10.20.0.0/20", "10.20.32.0/24"], "type": ["list", "string"]},
  "triggers_replace": null}, "sensitive_attributes": []}]}]}`

// TestExportDynamicTypes checks that an export writes terraform_data's
// values with the types terraform recorded (so that terraform plans no
// update): those of a previous state, else those adoption kept in the
// record (state.Resource.InputTypes); a record without them (written
// before they were kept) has them inferred.
func TestExportDynamicTypes(t *testing.T) {
	list, tuple := `["list","string"]`, `["tuple",["string","string"]]`
	tests := map[string]struct {
		previous, untyped bool
		input, outp       string
	}{
		"with the previous state":          {previous: true, input: list, outp: list},
		"without":                          {previous: false, input: list, outp: list},
		"with the previous, an old record": {previous: true, untyped: true, input: list, outp: list},
		"without, an old record":           {previous: false, untyped: true, input: tuple, outp: tuple},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			prev, err := Parse([]byte(netState))
			if err != nil {
				t.Fatal(err)
			}
			snap, _, err := ToSnapshot(prev, target)
			if err != nil {
				t.Fatal(err)
			}
			if tc.untyped {
				for _, r := range snap.Resources {
					r.InputTypes = nil
				}
			}
			var opts ExportOptions
			if tc.previous {
				opts.DynamicTypes = DynamicTypes(prev)
			}
			st, _, err := FromSnapshot(snap, opts)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{"input": dynType(t, st, "input"), "output": dynType(t, st, "output")}
			if diff := cmp.Diff(map[string]string{"input": tc.input, "output": tc.outp}, got); diff != "" {
				t.Errorf("terraform_data's types (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExportDynamicTypesNotKept checks that a recorded type the value no
// longer has is not kept, the previous state's nor the record's.
func TestExportDynamicTypesNotKept(t *testing.T) {
	prev, err := Parse([]byte(netState))
	if err != nil {
		t.Fatal(err)
	}
	snap, _, err := ToSnapshot(prev, target)
	if err != nil {
		t.Fatal(err)
	}
	types := DynamicTypes(prev)
	types["terraform_data.net"]["input"] = json.RawMessage(`["list","number"]`)
	for _, r := range snap.Resources {
		if r.InputTypes != nil {
			r.InputTypes["input"] = json.RawMessage(`["list","number"]`)
		}
	}
	st, _, err := FromSnapshot(snap, ExportOptions{DynamicTypes: types})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dynType(t, st, "input"), `["tuple",["string","string"]]`; got != want {
		t.Errorf("input's type is %s, want %s (the recorded list(number) does not fit the strings)", got, want)
	}
}

// dynType is the type the first instance of a state records for a
// dynamic attribute.
func dynType(t *testing.T, st *State, attr string) string {
	t.Helper()
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(st.Resources[0].Instances[0].Attributes, &attrs); err != nil {
		t.Fatal(err)
	}
	var w struct{ Type json.RawMessage }
	if err := json.Unmarshal(attrs[attr], &w); err != nil {
		t.Fatalf("attribute %s: %v", attr, err)
	}
	return string(w.Type)
}
