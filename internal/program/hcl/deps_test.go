package hcl

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/program"
)

// TestInstanceDependencies: an instance that names one instance of
// another resource depends on that one only; a whole reference (a
// splat, depends_on, a local) keeps every instance.
func TestInstanceDependencies(t *testing.T) {
	src := `
resource "random_pet" "a" {
  count = 3
}
locals {
  all = random_pet.a[*].id
}
resource "random_pet" "one" {
  count  = 3
  prefix = random_pet.a[count.index].id
}
resource "random_pet" "lit" {
  prefix = random_pet.a[2].id
}
resource "random_pet" "splat" {
  count  = 2
  prefix = random_pet.a[count.index].id
  keepers = { all = join(",", random_pet.a[*].id) }
}
resource "random_pet" "via_local" {
  count  = 2
  prefix = "${random_pet.a[count.index].id}${length(local.all)}"
}
resource "random_pet" "depends" {
  count      = 2
  prefix     = random_pet.a[count.index].id
  depends_on = [random_pet.a]
}
`
	mon, err := runConfig(t, map[string]string{"main.tf": src}, program.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	all := []string{"random_pet.a[0]", "random_pet.a[1]", "random_pet.a[2]"}
	want := map[string][]string{
		"random_pet.one[1]":       {"random_pet.a[1]"},
		"random_pet.lit":          {"random_pet.a[2]"},
		"random_pet.splat[0]":     all,
		"random_pet.via_local[1]": all,
		"random_pet.depends[0]":   all,
	}
	for name, w := range want {
		var got []string
		for _, u := range mon.regs[name].Dependencies {
			got = append(got, u.Name())
		}
		// A whole counted resource is one dependency group: it stands
		// for every instance.
		for _, g := range mon.regs[name].DependencyGroups {
			for _, i := range all {
				if u := mon.URN(mon.regs[name].Type, i, ""); strings.HasPrefix(string(u), string(g)+"[") {
					got = append(got, i)
				}
			}
		}
		sort.Strings(got)
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("%s depends on (-want +got):\n%s", name, diff)
		}
	}
}
