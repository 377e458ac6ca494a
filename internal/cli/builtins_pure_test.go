package cli

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/providers/plinth"
	"github.com/plinth-iac/plinth/providers/terraform"
)

// TestBuiltinsDeclarePureTypes checks which types of the built-in
// providers, as the engine gets them, are pure (provider.Pure): those
// computed in memory that live only in state, and none that touches
// files, runs commands or waits.
func TestBuiltinsDeclarePureTypes(t *testing.T) {
	want := map[string]bool{
		plinth.PetType: true, plinth.StringType: true, plinth.IntegerType: true,
		plinth.FileType: false, plinth.CommandType: false, plinth.SleepType: false,
		terraform.DataType: true,
	}
	got := map[string]bool{}
	b := builtins(t.TempDir())
	for typ := range want {
		pkg := plinth.Name
		if typ == terraform.DataType {
			pkg = terraform.Name
		}
		p, err := b[pkg].New()
		if err != nil {
			t.Fatal(err)
		}
		got[typ] = provider.IsPure(p, typ)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pure types (-want +got):\n%s", diff)
	}
}
