package tfstate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/statetest"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// hyphenated is a Terraform state whose providers have hyphens in their
// names (google-beta, a third-party terraform-provider-foo's "foo-bar"):
// their provider resources are pulumi:providers:google-beta and
// pulumi:providers:foo-bar.
const hyphenated = `{
  "version": 4,
  "terraform_version": "1.11.4",
  "serial": 3,
  "lineage": "5a1b2c3d-0000-4000-8000-000000000001",
  "outputs": {},
  "resources": [
    {
      "mode": "managed",
      "type": "google_compute_address",
      "name": "ip",
      "provider": "provider[\"registry.terraform.io/hashicorp/google-beta\"]",
      "instances": [
        {"schema_version": 0, "attributes": {"id": "projects/p/regions/r/addresses/ip", "name": "ip"}, "sensitive_attributes": [], "create_before_destroy": false}
      ]
    },
    {
      "module": "module.net",
      "mode": "managed",
      "type": "foo_thing",
      "name": "x",
      "each": "map",
      "provider": "provider[\"registry.example.com/acme/foo-bar\"]",
      "instances": [
        {"index_key": "a b", "schema_version": 0, "attributes": {"id": "t-1"}, "sensitive_attributes": [], "create_before_destroy": false}
      ]
    }
  ],
  "check_results": null
}
`

// TestHyphenatedProvidersRoundTrip: a Terraform state whose providers'
// names hold hyphens is adopted (the adopted snapshot passes the loader's
// integrity check; it did not: type name "google-beta" must start with a
// letter ...) and exported back unchanged.
func TestHyphenatedProvidersRoundTrip(t *testing.T) {
	snap, _ := adopt(t, []byte(hyphenated))
	var types []string
	for _, r := range snap.Resources {
		types = append(types, r.Type)
	}
	want := []string{"pulumi:providers:google-beta", "google:index:google_compute_address", "pulumi:providers:foo-bar", "foo:index:foo_thing"}
	if diff := cmp.Diff(want, types); diff != "" {
		t.Errorf("adopted types (-want +got):\n%s", diff)
	}
	back, notes, err := FromSnapshot(snap, ExportOptions{Lineage: "5a1b2c3d-0000-4000-8000-000000000001", Serial: 3})
	if err != nil || len(notes) != 0 {
		t.Fatalf("export: %v %v", err, notes)
	}
	out, err := Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(normalise(t, []byte(hyphenated), true), normalise(t, out, false)); diff != "" {
		t.Errorf("round trip (-in +out):\n%s", diff)
	}
}

// TestExportLeavesOutComponentsOfAnyType: a stack holding components of
// every type a front end accepts (statetest.Tokens) and Terraform
// resources exports with a note per component, and adopting the export
// gives back the Terraform resources.
func TestExportLeavesOutComponentsOfAnyType(t *testing.T) {
	snap := &state.Snapshot{}
	var components []string
	for _, tok := range statetest.Tokens {
		if !tok.Custom {
			u := resource.NewURN("dev", "proj", "", tok.Type, "c")
			snap.Resources = append(snap.Resources, &state.Resource{URN: u, Type: tok.Type})
			components = append(components, string(u))
		}
	}
	adopted, _ := adopt(t, []byte(hyphenated))
	snap.Resources = append(snap.Resources, adopted.Resources...)
	if err := snap.Verify(); err != nil {
		t.Fatal(err)
	}
	back, notes, err := FromSnapshot(snap, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range components {
		if !strings.Contains(strings.Join(notes, "\n"), "component "+c+" is left out") {
			t.Errorf("no note says component %s is left out: %q", c, notes)
		}
	}
	out, err := Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := adopt(t, out)
	if diff := cmp.Diff(urns(adopted), urns(again)); diff != "" {
		t.Errorf("adopted again (-first +again):\n%s", diff)
	}
}

func urns(s *state.Snapshot) []string {
	var out []string
	for _, r := range s.Resources {
		out = append(out, string(r.URN)+" "+r.Type)
	}
	return out
}
