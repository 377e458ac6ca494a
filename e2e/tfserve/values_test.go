package tfserve

import (
	"fmt"
	"strings"
	"testing"
)

// valuesConfig holds what Terraform's rules on planned values catch:
// keepers and triggers built from another resource's attribute (unknown
// in the first plan), a file mode the provider normalises ("600" is
// "0600"), and a default on a field of a nested object.
func valuesConfig(protocol int) string {
	paint := "paint = { coats = 2 }"
	if protocol == 5 {
		paint = "paint {\n    coats = 2\n  }"
	}
	return `terraform {
  required_providers {
    plinth     = { source = "plinth-iac/plinth" }
    plinthtest = { source = "plinth-iac/plinthtest" }
  }
}
resource "plinth_random_pet" "a" {}
resource "plinth_random_pet" "b" {
  keepers = { a = plinth_random_pet.a.name }
}
resource "plinth_exec_command" "c" {
  create   = "true"
  triggers = [plinth_random_pet.a.name]
}
resource "plinth_time_sleep" "t" {
  triggers = { a = plinth_random_pet.a.name }
}
resource "plinth_fs_file" "f" {
  path        = "f.txt"
  content     = "x"
  permissions = "600"
}
resource "plinthtest_painted" "p" {
  ` + paint + `
}
`
}

// TestTerraformAcceptsPlannedValues: terraform applies a configuration
// whose keepers and triggers are unknown when planned, and the next plan
// (after a refresh) is empty: the configured file mode and the nested
// default are recorded as planned.
func TestTerraformAcceptsPlannedValues(t *testing.T) {
	t.Parallel()
	for _, protocol := range []int{6, 5} {
		t.Run(fmt.Sprintf("protocol%d", protocol), func(t *testing.T) {
			t.Parallel()
			w := newTF(t, protocol, bins.test1)
			w.write("main.tf", valuesConfig(protocol))
			w.must("apply", "-auto-approve")
			st := stateOf(t, w)
			if got, want := st["plinth_random_pet.b"]["keepers"], map[string]any{"a": st["plinth_random_pet.a"]["name"]}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("keepers = %v, want %v", got, want)
			}
			if got := st["plinthtest_painted.p"]["paint"]; !strings.Contains(fmt.Sprint(got), "color:blue") {
				t.Errorf("paint = %v, want the default color blue recorded", got)
			}
			assertNoChanges(t, w, "after the apply")
			w.must("destroy", "-auto-approve")
		})
	}
}
