package hcl

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// fakeMonitor records registrations and answers them with their inputs
// as outputs and the name as ID; preview makes IDs unknown.
type fakeMonitor struct {
	preview bool
	mu      sync.Mutex
	regs    map[string]engine.Registration
	outputs resource.Object
	invokes []string
	// opened and closed are the ephemeral resources opened and closed.
	opened, closed []string
	// recorded are the names the fake state holds (see Recorded).
	recorded map[string]bool
	// outcome, if set, is what the engine says it did to a resource.
	outcome func(name string) (engine.StepOp, []string)
	// imported, if set, are the outputs an import registration reads.
	imported resource.Object
	// schema, if set, is the schema of a package schemas does not name.
	schema  *schema.Schema
	schemas map[string]*schema.Schema // by package; nil: no schema
	// readErr, if set, is the error a data source read fails with (nil:
	// it succeeds).
	readErr func(engine.InvokeRequest) error
	// outputsOf, if set, makes a resource's outputs from its inputs (nil:
	// the inputs are the outputs).
	outputsOf func(resource.Object) resource.Object
	// schemaVersions are the package@version each Schema call asked for.
	schemaVersions []string
	// outputTypes are the stack outputs' types (engine.OutputTyper).
	outputTypes map[string]json.RawMessage
}

func (f *fakeMonitor) Register(reg engine.Registration, done func(engine.Registered, error)) {
	f.mu.Lock()
	f.regs[reg.Name] = reg
	f.mu.Unlock()
	id := resource.NewString(reg.Name)
	if f.preview {
		id = resource.Unknown()
	}
	outs := reg.Inputs
	if reg.ImportID != "" && f.imported != nil {
		outs = f.imported
	}
	if f.outputsOf != nil {
		outs = f.outputsOf(reg.Inputs)
	}
	res := engine.Registered{URN: resource.NewURN("dev", "p", "", reg.Type, reg.Name), ID: id, Outputs: outs, Custom: true,
		ProviderRef: "urn::" + reg.Name}
	if f.outcome != nil {
		res.Op, res.Changed = f.outcome(reg.Name)
	}
	go done(res, nil)
}
func (f *fakeMonitor) Recorded(urn resource.URN) bool                      { return f.recorded[urn.Name()] }
func (f *fakeMonitor) RegisterOutputs(resource.URN, resource.Object) error { return nil }
func (f *fakeMonitor) SetStackOutputs(o resource.Object)                   { f.outputs = o }
func (f *fakeMonitor) SetStackOutputTypes(t map[string]json.RawMessage)    { f.outputTypes = t }
func (f *fakeMonitor) Invoke(_ context.Context, req engine.InvokeRequest) (resource.Object, error) {
	f.mu.Lock()
	f.invokes = append(f.invokes, req.Token)
	f.mu.Unlock()
	if f.readErr != nil {
		if err := f.readErr(req); err != nil {
			return nil, err
		}
	}
	out := req.Args.Copy()
	out["read"] = resource.NewBool(true)
	return out, nil
}
func (f *fakeMonitor) Schema(_ context.Context, pkg, version string) (*schema.Schema, error) {
	f.mu.Lock()
	f.schemaVersions = append(f.schemaVersions, pkg+"@"+version)
	f.mu.Unlock()
	if s, ok := f.schemas[pkg]; ok {
		return s, nil
	}
	return f.schema, nil
}
func (f *fakeMonitor) URN(typ, name string, parent resource.URN) resource.URN {
	return resource.NewURN("dev", "p", "", typ, name)
}

// runConfig writes files into a directory, loads and runs them.
func runConfig(t *testing.T, files map[string]string, opts program.Options, preview bool) (*fakeMonitor, error) {
	t.Helper()
	return runConfigOn(t, files, opts, &fakeMonitor{preview: preview})
}

// runConfigOn is runConfig on a given fake monitor.
func runConfigOn(t *testing.T, files map[string]string, opts program.Options, mon *fakeMonitor) (*fakeMonitor, error) {
	t.Helper()
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
		return nil, err
	}
	opts.Getenv = func(k string) string { return map[string]string{"TF_VAR_env": "from-env"}[k] }
	ev, err := c.Program(nil, opts)
	if err != nil {
		return nil, err
	}
	mon.regs, mon.schemas = map[string]engine.Registration{}, testSchemas
	return mon, ev.Run(context.Background(), mon)
}

func names(m *fakeMonitor) []string {
	var out []string
	for n := range m.regs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func TestAddresses(t *testing.T) {
	tests := map[string]struct {
		files map[string]string
		want  []string
	}{
		"count": {files: map[string]string{"main.tf": `resource "random_pet" "p" { count = 2 }`},
			want: []string{"random_pet.p[0]", "random_pet.p[1]"}},
		"for_each set": {files: map[string]string{"main.tf": `resource "random_pet" "p" { for_each = toset(["b", "a"]) }`},
			want: []string{`random_pet.p["a"]`, `random_pet.p["b"]`}},
		"module for_each": {files: map[string]string{
			"main.tf":   "module \"site\" {\n for_each = { x = 1 }\n source = \"./m\"\n}",
			"m/main.tf": `resource "local_file" "page" { filename = "f" }`,
			"m/vars.tf": `variable "unused" { default = 1 }`,
		}, want: []string{`module.site["x"].local_file.page`}},
		"provider alias": {files: map[string]string{"main.tf": `
provider "random" { alias = "west" }
resource "random_pet" "p" { provider = random.west }`}, want: []string{"provider.random.west", "random_pet.p"}},
		// The root module's unaliased block is the provider Terraform
		// implies without one: provider["registry.terraform.io/hashicorp/random"]
		// either way, so plinth names it as the default provider.
		"root provider without alias": {files: map[string]string{
			"main.tf":   "provider \"random\" {}\nresource \"random_pet\" \"p\" {}\nmodule \"m\" { source = \"./m\" }",
			"m/main.tf": "provider \"local\" {}\nresource \"local_file\" \"f\" { filename = \"f\" }",
		}, want: []string{"default", "module.m.local_file.f", "module.m.provider.local", "random_pet.p"}},
		// A configuration has one version of each provider: the
		// constraint selects it and leaves the name alone.
		"root provider with a version": {files: map[string]string{"main.tf": `
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "3.6.0" }
  }
}
provider "random" {}
resource "random_pet" "p" {}`}, want: []string{"default", "random_pet.p"}},
		"aliased and module providers with versions": {files: map[string]string{
			"main.tf": `
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "~> 3.6" }
  }
}
provider "random" { alias = "west" }
resource "random_pet" "p" { provider = random.west }
module "m" { source = "./m" }`,
			"m/main.tf": `
terraform {
  required_providers {
    local = { source = "hashicorp/local", version = ">= 2.4" }
  }
}
provider "local" {}
resource "local_file" "f" { filename = "f" }`,
		}, want: []string{"module.m.local_file.f", "module.m.provider.local", "provider.random.west", "random_pet.p"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			mon, err := runConfig(t, tc.files, program.Options{}, false)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, names(mon)); diff != "" {
				t.Errorf("registered names (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOutputsAndExpressions(t *testing.T) {
	files := map[string]string{"main.tf": `
variable "cfg" {
  type    = object({ name = string, size = optional(number, 3) })
  default = { name = "n" }
}
variable "env" {}
variable "cli" { default = "default" }
locals {
  list = [for i in range(var.cfg.size) : "${var.cfg.name}-${i}"]
}
resource "local_file" "f" {
  count    = 2
  filename = "f${count.index}"
  dynamic "block" {
    for_each = { a = 1 }
    content { v = block.value }
  }
}
output "list" { value = local.list }
output "splat" { value = local_file.f[*].filename }
output "cond" { value = var.cfg.size > 2 ? "big" : "small" }
output "env" { value = var.env }
output "cli" { value = var.cli }
output "ws" { value = terraform.workspace }
output "heredoc" {
  value = <<-EOT
    a
    b
  EOT
}
`, "terraform.tfvars": `cli = "tfvars"`}
	mon, err := runConfig(t, files, program.Options{Stack: "prod", Vars: []string{"cli=flag"}}, false)
	if err != nil {
		t.Fatal(err)
	}
	want := resource.Object{
		"list":    resource.NewArray(resource.NewString("n-0"), resource.NewString("n-1"), resource.NewString("n-2")),
		"splat":   resource.NewArray(resource.NewString("f0"), resource.NewString("f1")),
		"cond":    resource.NewString("big"),
		"env":     resource.NewString("from-env"),
		"cli":     resource.NewString("flag"),
		"ws":      resource.NewString("prod"),
		"heredoc": resource.NewString("a\nb\n"),
	}
	if diff := cmp.Diff(resource.NewObject(want).String(), resource.NewObject(mon.outputs).String()); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	block := mon.regs["local_file.f[0]"].Inputs["block"]
	if got := block.String(); !strings.Contains(got, `"v": 1`) {
		t.Errorf("the dynamic block expanded to %s", got)
	}
}

// TestDataSourceDeferral: a data source whose argument comes from a
// resource to be created is not read in a preview, and is read on apply.
func TestDataSourceDeferral(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "local_file" "f" { filename = "x" }
data "local_file" "r" { filename = local_file.f.filename }
data "local_file" "now" { filename = "known" }
output "read" { value = data.local_file.r.read }
`}
	for _, preview := range []bool{true, false} {
		mon, err := runConfig(t, files, program.Options{}, preview)
		if err != nil {
			t.Fatal(err)
		}
		wantCalls := 2
		if preview {
			wantCalls = 1
		}
		if len(mon.invokes) != wantCalls {
			t.Errorf("preview=%v: %d data sources read, want %d", preview, len(mon.invokes), wantCalls)
		}
		if got := mon.outputs["read"]; got.IsUnknown() != preview {
			t.Errorf("preview=%v: output read = %s", preview, got)
		}
	}
}

func TestLifecycleOptions(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "local_file" "f" {
  filename = "x"
  content  = "y"
  lifecycle {
    prevent_destroy = true
    ignore_changes  = [content]
  }
}
resource "local_file" "all" {
  filename = "z"
  lifecycle { ignore_changes = all }
  depends_on = [local_file.f]
}
`}
	mon, err := runConfig(t, files, program.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	f := mon.regs["local_file.f"]
	if !f.Protect || !cmp.Equal(f.IgnoreChanges, []string{"content"}) {
		t.Errorf("local_file.f: protect %v, ignore %v", f.Protect, f.IgnoreChanges)
	}
	all := mon.regs["local_file.all"]
	if !cmp.Equal(all.IgnoreChanges, []string{"filename"}) || len(all.Dependencies) != 1 {
		t.Errorf("local_file.all: ignore %v, dependencies %v", all.IgnoreChanges, all.Dependencies)
	}
}

// TestCountedDependencyGroup: an instance of a counted resource that
// refers to another counted resource depends on it as a group (one
// entry), not on each of its instances.
func TestCountedDependencyGroup(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "local_file" "a" {
  count    = 3
  filename = "a${count.index}"
}
resource "local_file" "b" {
  count    = 3
  filename = "b${count.index}"
  content  = join(",", local_file.a[*].filename)
}
`}
	mon, err := runConfig(t, files, program.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	b := mon.regs["local_file.b[1]"]
	a0 := mon.URN(b.Type, "local_file.a[0]", "")
	group, _ := state.GroupOf(a0)
	if len(b.Dependencies) != 0 || !cmp.Equal(b.DependencyGroups, []resource.URN{group}) || group == "" {
		t.Errorf("local_file.b[1]: dependencies %v, groups %v; want only the group of %s", b.Dependencies, b.DependencyGroups, a0)
	}
}

// TestIgnoreChangesIndexPaths: a trailing string index in ignore_changes
// ignores one key of a map-typed argument, but of an object (a dynamic
// argument given an object, as terraform_data's input) the whole
// argument, as terraform does.
func TestIgnoreChangesIndexPaths(t *testing.T) {
	str := schema.Type{Kind: schema.TypeString}
	ign := &schema.Schema{Resources: map[string]schema.ResourceSchema{"ign:index:ign_thing": {Inputs: map[string]schema.Property{
		"keepers": {Type: schema.Type{Kind: schema.TypeMap, Elem: &str}},
		"input":   {Type: schema.Type{Kind: schema.TypeAny}},
		"list":    {Type: schema.Type{Kind: schema.TypeArray, Elem: &str}},
	}}}}
	tests := map[string]struct{ args, ignore, want string }{
		"map key":          {`keepers = { x = "1", y = "2" }`, `keepers["x"]`, `keepers["x"]`},
		"object key":       {`input = { a = "1", b = "2" }`, `input["a"]`, `input`},
		"map in object":    {`input = { m = tomap({ a = "1" }) }`, `input.m["a"]`, `input.m["a"]`},
		"object in object": {`input = { m = { a = "1" } }`, `input["m"]["a"]`, `input["m"]`},
		"list index":       {`list = ["a"]`, `list[0]`, `list[0]`},
		"attribute":        {`input = { a = "1" }`, `input.a`, `input.a`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			src := fmt.Sprintf("resource \"ign_thing\" \"t\" {\n  %s\n  lifecycle { ignore_changes = [%s] }\n}\n", tc.args, tc.ignore)
			mon, err := runConfigOn(t, map[string]string{"main.tf": src}, program.Options{}, &fakeMonitor{schema: ign})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{tc.want}, mon.regs["ign_thing.t"].IgnoreChanges); diff != "" {
				t.Errorf("ignore paths (-want +got):\n%s", diff)
			}
		})
	}
}
