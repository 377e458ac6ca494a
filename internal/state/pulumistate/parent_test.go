package pulumistate

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestExportProviderParents: an export gives an explicit provider the
// stack as parent, as pulumi records a provider the program declares,
// and leaves default providers without one, as pulumi does; an adoption
// takes the stack parent off again. Explicit providers had no parent.
func TestExportProviderParents(t *testing.T) {
	urn := func(typ, name string) resource.URN { return resource.NewURN("dev", "app", "", typ, name) }
	snap := &state.Snapshot{Resources: []*state.Resource{
		{URN: urn("pulumi:providers:plinth", "default"), Type: "pulumi:providers:plinth", Custom: true, ID: "p0"},
		{URN: urn("pulumi:providers:plinth", "default_0_1_0"), Type: "pulumi:providers:plinth", Custom: true, ID: "p1"},
		{URN: urn("pulumi:providers:plinth", "explicit"), Type: "pulumi:providers:plinth", Custom: true, ID: "p2"},
	}}
	out, err := FromSnapshot(snap, nil, time.Now(), ExportOptions{Stack: "dev", Project: "app"})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range d.Resources {
		got[resource.URN(r.URN).Name()] = string(r.Parent)
	}
	stack := string(urn("pulumi:pulumi:Stack", "app-dev"))
	want := map[string]string{"app-dev": "", "default": "", "default_0_1_0": "", "explicit": stack}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parents in the export (-want +got):\n%s", diff)
	}
	back, _, err := ToSnapshot(d, Target{Stack: "dev", Project: "app"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range back.Resources {
		if r.Parent != "" {
			t.Errorf("adopted %s has parent %s, want none", r.URN, r.Parent)
		}
	}
}
