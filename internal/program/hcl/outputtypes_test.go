package hcl

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/program"
)

// TestOutputTypes: each known root output's Terraform type goes to the
// engine with the outputs (engine.OutputTyper), as terraform's state
// records it: a list, a set or a map where the value alone reads as a
// tuple or an object. A null output is left out with its value.
func TestOutputTypes(t *testing.T) {
	files := map[string]string{"main.tf": `
variable "names" {
  type    = list(string)
  default = ["a", "b"]
}
output "list" { value = var.names }
output "tuple" { value = ["a", 1] }
output "set" { value = toset(["b", "a"]) }
output "map" { value = tomap({ a = "x" }) }
output "object" { value = { a = "x", n = 1 } }
output "secret" {
  value     = sensitive(tolist(["s"]))
  sensitive = true
}
output "null" { value = null }
`}
	mon, err := runConfig(t, files, program.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for n, ty := range mon.outputTypes {
		got[n] = string(ty)
	}
	want := map[string]string{
		"list": `["list","string"]`, "tuple": `["tuple",["string","number"]]`, "set": `["set","string"]`,
		"map": `["map","string"]`, "object": `["object",{"a":"string","n":"number"}]`, "secret": `["list","string"]`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output types (-want +got):\n%s", diff)
	}
}
