package display

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTFAddrOrder: a plan's blocks come in the order terraform 1.11 wrote
// them for the same addresses (recorded from `terraform plan`): the root
// module's resources first, then modules by depth and path, data sources
// before managed resources, integer keys numerically.
func TestTFAddrOrder(t *testing.T) {
	want := []string{
		"data.terraform_remote_state.r",
		"random_pet.p",
		"terraform_data.a",
		"terraform_data.c[0]",
		"terraform_data.c[2]",
		"terraform_data.c[10]",
		`terraform_data.s["a"]`,
		`terraform_data.s["b"]`,
		"terraform_data.z",
		"module.b.terraform_data.b",
		"module.b.terraform_data.c[0]",
		"module.b.terraform_data.c[1]",
		`module.m["a.b"].data.local_file.f`,
		`module.m["a.b"].terraform_data.b`,
		`module.m["b"].terraform_data.b`,
		"module.b.module.n[0].terraform_data.x",
		"module.b.module.n[1].terraform_data.x",
		"module.m.module.n[0].terraform_data.x",
	}
	tests := map[string][]string{
		"reversed": reversed(want),
		"by text":  sortedCopy(want),
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			got := append([]string(nil), in...)
			sort.SliceStable(got, func(i, j int) bool { return tfAddrLess(got[i], got[j]) })
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("order (-terraform +plinth):\n%s", diff)
			}
		})
	}
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
