package hcl

import (
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

var (
	str = schema.Type{Kind: schema.TypeString}
	num = schema.Type{Kind: schema.TypeNumber}
	// testSchemas is what the fake monitor's providers declare: "chk"
	// has a resource and a data source; "ext" a resource and a data
	// source named like it (as the external provider's data source is);
	// other packages have no schema.
	testSchemas = map[string]*schema.Schema{"ext": {
		Resources: map[string]schema.ResourceSchema{"ext:index:ext": {Inputs: map[string]schema.Property{"query": {Type: str}}}},
		Functions: map[string]schema.FunctionSchema{"ext:index:ext": {Inputs: map[string]schema.Property{"query": {Type: str}},
			Outputs: map[string]schema.Property{"query": {Type: str}, "result": {Type: str}}}},
	}, "chk": {
		Resources: map[string]schema.ResourceSchema{"chk:index:chk_file": {Inputs: map[string]schema.Property{
			"filename": {Type: str, Required: true},
			"size":     {Type: num},
			"tags":     {Type: schema.Type{Kind: schema.TypeArray, Elem: &str}},
			"subject": {Type: schema.Type{Kind: schema.TypeArray, Elem: &schema.Type{Kind: schema.TypeObject,
				Properties: map[string]schema.Property{"cn": {Type: str, Required: true}, "pw": {Type: str}}}}},
		}, Outputs: map[string]schema.Property{
			"filename": {Type: str}, "size": {Type: num}, "digest": {Type: str},
			"tags": {Type: schema.Type{Kind: schema.TypeArray, Elem: &str}},
			"subject": {Type: schema.Type{Kind: schema.TypeArray, Elem: &schema.Type{Kind: schema.TypeObject,
				Properties: map[string]schema.Property{"cn": {Type: str}, "pw": {Type: str, Secret: true}, "serial": {Type: str}}}}},
		}}},
		Functions: map[string]schema.FunctionSchema{"chk:index:chk_file": {
			Inputs: map[string]schema.Property{
				"filename": {Type: str, Required: true}, "mode": {Type: str, Computed: true}, "note": {Type: str}},
			Outputs: map[string]schema.Property{"filename": {Type: str}, "mode": {Type: str}, "note": {Type: str},
				"content": {Type: str}, "key": {Type: str, Secret: true}}}},
	}}
)

// TestSchemaChecks: mistakes a provider's schema finds are reported at
// the argument's file:line:col before anything registers.
func TestSchemaChecks(t *testing.T) {
	cases := map[string]struct{ src, want string }{
		"unknown type":       {`resource "chk_fil" "a" {}`, "main.tf:1:1: Invalid resource type"},
		"unknown data":       {`data "chk_nope" "a" {}`, "main.tf:1:1: Invalid data source"},
		"unknown argument":   {"resource \"chk_file\" \"a\" {\n  filename = \"x\"\n  colour = 1\n}", "main.tf:3:3: Unsupported argument"},
		"wrong type":         {"resource \"chk_file\" \"a\" {\n  filename = \"x\"\n  size = \"big\"\n}", "main.tf:3:10: Incorrect attribute value type"},
		"wrong element type": {"resource \"chk_file\" \"a\" {\n  filename = \"x\"\n  tags = [[1]]\n}", "main.tf:3:10: Incorrect attribute value type"},
		"missing required":   {`resource "chk_file" "a" {}`, "main.tf:1:25: Missing required argument"},
		"unknown block":      {"resource \"chk_file\" \"a\" {\n  filename = \"x\"\n  subjekt {}\n}", "main.tf:3:3: Unsupported block type"},
		"nested required":    {"resource \"chk_file\" \"a\" {\n  filename = \"x\"\n  subject {}\n}", "main.tf:3:11: Missing required argument"},
		"dynamic content":    {"resource \"chk_file\" \"a\" {\n  filename = \"x\"\n  dynamic \"subject\" {\n    for_each = [1]\n    content { cm = 1 }\n  }\n}", "main.tf:5:15: Unsupported argument"},
		"data argument":      {"data \"chk_file\" \"a\" {\n  file = \"x\"\n}", "main.tf:2:3: Unsupported argument"},
		"read-only argument": {"resource \"chk_file\" \"a\" {\n  filename = \"x\"\n  digest = \"d\"\n}", "main.tf:3:12: Invalid Configuration for Read-Only Attribute"},
		"read-only detail":   {"resource \"chk_file\" \"a\" {\n  filename = \"x\"\n  digest = \"d\"\n}", "Cannot set value for this attribute as the provider has marked it as read-only. Remove the configuration line setting the value."},
		"nested read-only":   {"resource \"chk_file\" \"a\" {\n  filename = \"x\"\n  subject {\n    cn = \"c\"\n    serial = \"s\"\n  }\n}", "main.tf:5:14: Invalid Configuration for Read-Only Attribute"},
		"read-only data":     {"data \"chk_file\" \"a\" {\n  filename = \"x\"\n  content = \"c\"\n}", "main.tf:3:13: Invalid Configuration for Read-Only Attribute"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			mon, err := runConfig(t, map[string]string{"main.tf": c.src}, program.Options{}, false)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got error %v, want one with %q", err, c.want)
			}
			if mon != nil && len(mon.regs)+len(mon.invokes) > 0 {
				t.Errorf("something ran before the check: %v %v", names(mon), mon.invokes)
			}
		})
	}
	ok := "resource \"chk_file\" \"a\" {\n  filename = \"x\"\n  size = \"3\"\n  tags = [1]\n  dynamic \"subject\" {\n    for_each = [\"a\"]\n    content { cn = subject.value }\n  }\n}"
	if _, err := runConfig(t, map[string]string{"main.tf": ok}, program.Options{}, false); err != nil {
		t.Errorf("a configuration that fits the schema failed: %v", err)
	}
}

// TestValueChecks: a value of the wrong type that reaches an argument
// through a variable, a local or a nested block, or is written in a
// .tf.json file, is reported at the file:line:col of its expression, as
// terraform reports it when it plans, and nothing of the resource runs.
func TestValueChecks(t *testing.T) {
	cases := map[string]struct {
		files map[string]string
		want  string
	}{
		"through a variable": {map[string]string{"main.tf": "variable \"s\" {\n  default = \"big\"\n}\nresource \"chk_file\" \"a\" {\n  filename = \"x\"\n  size     = var.s\n}"},
			`main.tf:6:14: Incorrect attribute value type`},
		"value named": {map[string]string{"main.tf": "variable \"s\" {\n  default = \"big\"\n}\nresource \"chk_file\" \"a\" {\n  filename = \"x\"\n  size     = var.s\n}"},
			`Inappropriate value for attribute "size": a number is required. The expression's value is "big".`},
		"through a local": {map[string]string{"main.tf": "locals {\n  t = \"one\"\n}\nresource \"chk_file\" \"a\" {\n  filename = \"x\"\n  tags     = local.t\n}"},
			`main.tf:6:14: Incorrect attribute value type`},
		"in a nested block": {map[string]string{"main.tf": "locals {\n  cn = [1]\n}\nresource \"chk_file\" \"a\" {\n  filename = \"x\"\n  subject {\n    cn = local.cn\n  }\n}"},
			`main.tf:7:10: Incorrect attribute value type`},
		"data source": {map[string]string{"main.tf": "locals {\n  f = {}\n}\ndata \"chk_file\" \"a\" {\n  filename = local.f\n}"},
			`main.tf:5:14: Incorrect attribute value type`},
		"sensitive value not shown": {map[string]string{"main.tf": "variable \"s\" {\n  default   = \"big\"\n  sensitive = true\n}\nresource \"chk_file\" \"a\" {\n  filename = \"x\"\n  size     = var.s\n}"},
			`a number is required.` + "\n"},
		"json literal": {map[string]string{"main.tf.json": `{"resource": {"chk_file": {"a": {"filename": "x", "size": "big"}}}}`},
			`main.tf.json:1:59: Incorrect attribute value type`},
		"json unknown argument": {map[string]string{"main.tf.json": `{"resource": {"chk_file": {"a": {"filename": "x", "colour": 1}}}}`},
			`main.tf.json:1:51: Extraneous JSON object property`},
		"json read-only argument": {map[string]string{"main.tf.json": `{"resource": {"chk_file": {"a": {"filename": "x", "digest": "d"}}}}`},
			`main.tf.json:1:61: Invalid Configuration for Read-Only Attribute`},
		"json missing required": {map[string]string{"main.tf.json": `{"resource": {"chk_file": {"a": {"size": 1}}}}`},
			`Missing required argument`},
		"json through a variable": {map[string]string{"main.tf.json": `{"variable": {"s": {"default": "big"}}, "resource": {"chk_file": {"a": {"filename": "x", "size": "${var.s}"}}}}`},
			`main.tf.json:1:98: Incorrect attribute value type`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			mon, err := runConfig(t, c.files, program.Options{}, false)
			if err == nil || !strings.Contains(err.Error()+"\n", c.want) {
				t.Fatalf("got error %v, want one with %q", err, c.want)
			}
			if mon != nil && len(mon.regs)+len(mon.invokes) > 0 {
				t.Errorf("the resource ran despite the error: %v %v", names(mon), mon.invokes)
			}
		})
	}
}

// TestDeferredReadShowsComputed: a data source read left to apply is
// shown as terraform shows it: its arguments, and each computed
// attribute the configuration leaves unset as known after apply
// (sensitive ones secret); an optional argument that is not computed
// stays unset.
func TestDeferredReadShowsComputed(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "chk_file" "f" { filename = "x" }
data "chk_file" "r" { filename = chk_file.f.id }
`}
	var got []program.DeferredRead
	var mu sync.Mutex
	opts := program.Options{DeferredRead: func(d program.DeferredRead) {
		mu.Lock()
		got = append(got, d)
		mu.Unlock()
	}}
	if _, err := runConfig(t, files, opts, true); err != nil {
		t.Fatal(err)
	}
	want := []program.DeferredRead{{Address: "data.chk_file.r", Type: "chk:index:chk_file", Args: resource.Object{
		"filename": resource.Unknown(), "mode": resource.Unknown(), "content": resource.Unknown(),
		"key": resource.MakeSecret(resource.Unknown())}}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(resource.Value{})); diff != "" {
		t.Errorf("deferred reads (-want +got):\n%s", diff)
	}
}

// TestDeferredReadReason: a deferred read says why it waits, as
// terraform's plan does: its arguments refer to values not yet known, or
// they are known but it depends on a resource with changes pending.
func TestDeferredReadReason(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "chk_file" "f" { filename = "x" }
data "chk_file" "unknown" { filename = chk_file.f.id }
data "chk_file" "pending" {
  filename   = "y"
  depends_on = [chk_file.f]
}
`}
	got := map[string]program.DeferReason{}
	var mu sync.Mutex
	opts := program.Options{DeferredRead: func(d program.DeferredRead) {
		mu.Lock()
		got[d.Address] = d.Reason
		mu.Unlock()
	}}
	if _, err := runConfig(t, files, opts, true); err != nil {
		t.Fatal(err)
	}
	want := map[string]program.DeferReason{
		"data.chk_file.unknown": program.ReadConfigUnknown,
		"data.chk_file.pending": program.ReadDependencyPending,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("deferred read reasons (-want +got):\n%s", diff)
	}
}
