package hcl

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
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

// TestResourceValuesTyped: a resource's attribute that its schema types
// as a list or a map of a primitive, or a list of blocks, has that type
// in expressions, as in terraform, so an output of it records
// list(string), map(string) or list(object), not a tuple or an object; a
// sensitive element stays sensitive.
func TestResourceValuesTyped(t *testing.T) {
	strT := schema.Type{Kind: schema.TypeString}
	props := map[string]schema.Property{
		"keepers": {Type: schema.Type{Kind: schema.TypeMap, Elem: &strT}},
		"names":   {Type: schema.Type{Kind: schema.TypeArray, Elem: &strT}},
		"blocks":  {Type: schema.Type{Kind: schema.TypeArray, Elem: &schema.Type{Kind: schema.TypeObject}}},
	}
	mon := &fakeMonitor{schema: &schema.Schema{Resources: map[string]schema.ResourceSchema{
		"typ:index:typ_thing": {Inputs: props, Outputs: props}}}}
	files := map[string]string{"main.tf": `
variable "s" {
  default   = "x"
  sensitive = true
}
resource "typ_thing" "t" {
  keepers = { a = var.s, b = "plain" }
  names   = ["n", "m"]
  blocks {}
}
output "keepers" {
  value     = typ_thing.t.keepers
  sensitive = true
}
output "names" { value = typ_thing.t.names }
output "blocks" { value = typ_thing.t.blocks }
output "a_sensitive" { value = issensitive(typ_thing.t.keepers["a"]) }
output "b_sensitive" { value = issensitive(typ_thing.t.keepers["b"]) }
`}
	if _, err := runConfigOn(t, files, program.Options{}, mon); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for n, ty := range mon.outputTypes {
		got[n] = string(ty)
	}
	want := map[string]string{"keepers": `["map","string"]`, "names": `["list","string"]`,
		"blocks": `["list",["object",{}]]`, "a_sensitive": `"bool"`, "b_sensitive": `"bool"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output types (-want +got):\n%s", diff)
	}
	if a, b := mon.outputs["a_sensitive"], mon.outputs["b_sensitive"]; !a.Bool() || b.Bool() {
		t.Errorf("issensitive of keepers a and b = %v and %v, want true and false", a, b)
	}
}

// TestDynamicInputTypes: an argument of dynamic type in the schema
// (terraform_data's input) is registered with its Terraform type
// (engine.Registration.InputTypes), which the value alone does not keep;
// other arguments and null ones are not.
func TestDynamicInputTypes(t *testing.T) {
	props := map[string]schema.Property{
		"input":            {Type: schema.Type{Kind: schema.TypeAny}},
		"triggers_replace": {Type: schema.Type{Kind: schema.TypeAny}},
		"name":             {Type: schema.Type{Kind: schema.TypeString}},
	}
	mon := &fakeMonitor{schema: &schema.Schema{Resources: map[string]schema.ResourceSchema{
		"typ:index:typ_data": {Inputs: props, Outputs: props}}}}
	files := map[string]string{"main.tf": `
resource "typ_data" "net" {
  input = cidrsubnets("10.0.0.0/16", 4, 4)
  name  = "n"
}
resource "typ_data" "obj" {
  input            = { a = 1 }
  triggers_replace = null
}
`}
	if _, err := runConfigOn(t, files, program.Options{}, mon); err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]string{}
	for name, reg := range mon.regs {
		for k, ty := range reg.InputTypes {
			if got[name] == nil {
				got[name] = map[string]string{}
			}
			got[name][k] = string(ty)
		}
	}
	want := map[string]map[string]string{
		"typ_data.net": {"input": `["list","string"]`},
		"typ_data.obj": {"input": `["object",{"a":"number"}]`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("registered input types (-want +got):\n%s", diff)
	}
}

// TestTerraformDataOutputTyped: terraform_data's output has its input's
// type, as in terraform, so an output of it records list(string) for
// cidrsubnets(...), not a tuple.
func TestTerraformDataOutputTyped(t *testing.T) {
	dyn := schema.Type{Kind: schema.TypeAny}
	props := map[string]schema.Property{"input": {Type: dyn}, "output": {Type: dyn}, "triggers_replace": {Type: dyn}}
	mon := &fakeMonitor{schema: &schema.Schema{Resources: map[string]schema.ResourceSchema{
		"terraform:index:terraform_data": {Inputs: props, Outputs: props}}}}
	mon.outputsOf = func(in resource.Object) resource.Object {
		out := in.Copy()
		out["output"] = in["input"]
		return out
	}
	files := map[string]string{"main.tf": `
resource "terraform_data" "net" {
  input = cidrsubnets("10.0.0.0/16", 4, 4)
}
output "subnets" { value = terraform_data.net.output }
output "input" { value = terraform_data.net.input }
`}
	if _, err := runConfigOn(t, files, program.Options{}, mon); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for n, ty := range mon.outputTypes {
		got[n] = string(ty)
	}
	want := map[string]string{"subnets": `["list","string"]`, "input": `["list","string"]`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output types (-want +got):\n%s", diff)
	}
}

// TestUpdateKeepsPlannedOutputs: an output whose value the preview of
// the same evaluator knew whole keeps that value in the update, as
// terraform's apply keeps a planned output it knew; one the preview did
// not know is evaluated again. Invicton-Labs' input-provided module
// relies on it: var.in != {...} is known true in the plan because var.in
// is an unknown string, and stays true once the apply finds var.in null
// and takes the (equal) default. Without a preview, every output is
// evaluated.
func TestUpdateKeepsPlannedOutputs(t *testing.T) {
	files := map[string]string{
		"main.tf": `
resource "t_thing" "r" {}
module "m" {
  source = "./m"
  in     = t_thing.r.id == "22" ? "foo" : null
}
output "provided" { value = module.m.provided }
output "id" { value = t_thing.r.id }
`,
		"m/main.tf": `
variable "in" {
  type     = any
  nullable = false
  default  = { a = [] }
}
output "provided" { value = var.in != { a = [] } }
`,
	}
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	run := func(p engine.Program, preview bool) resource.Object {
		mon := &fakeMonitor{preview: preview, regs: map[string]engine.Registration{}, schemas: testSchemas}
		if err := p.Run(context.Background(), mon); err != nil {
			t.Fatal(err)
		}
		return mon.outputs
	}
	ev, err := c.Program(nil, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	planned := run(ev.DryRun(), true)
	applied := run(ev, false)
	alone, err := c.Program(nil, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	unplanned := run(alone, false)
	got := map[string]string{
		"planned": planned["provided"].String(), "applied": applied["provided"].String(),
		"applied id": applied["id"].String(), "without a preview": unplanned["provided"].String(),
	}
	want := map[string]string{"planned": "true", "applied": "true", "applied id": `"t_thing.r"`, "without a preview": "false"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("provided (-want +got):\n%s", diff)
	}
}
