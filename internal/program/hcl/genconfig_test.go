package hcl

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestGenerateConfig: required and set optional attributes are written,
// null optional and computed-only ones left out, secrets masked, nested
// objects written as blocks.
func TestGenerateConfig(t *testing.T) {
	str := schema.Type{Kind: schema.TypeString}
	num := schema.Type{Kind: schema.TypeInteger}
	sch := schema.ResourceSchema{
		Inputs: map[string]schema.Property{
			"byte_length": {Type: num, Required: true},
			"prefix":      {Type: str},
			"keepers":     {Type: schema.Type{Kind: schema.TypeMap, Elem: &str}},
			"token":       {Type: str, Secret: true},
			"rule": {Type: schema.Type{Kind: schema.TypeArray, Elem: &schema.Type{Kind: schema.TypeObject,
				Properties: map[string]schema.Property{"port": {Type: num, Required: true}}}}},
		},
		Outputs: map[string]schema.Property{"hex": {Type: str}, "id": {Type: str}},
	}
	attrs := resource.Object{
		"byte_length": resource.NewNumber(8), "prefix": resource.NewString("x-"), "keepers": resource.Null(),
		"token": resource.MakeSecret(resource.NewString("s3cret")), "hex": resource.NewString("abcd"), "id": resource.NewString("q83v"),
		"rule": resource.NewArray(resource.NewObject(resource.Object{"port": resource.NewNumber(80)})),
	}
	got := string(GenerateConfig([]Imported{{Type: "random_id", Name: "r", ID: "q83v", Attributes: attrs, Schema: sch}}))
	want := GeneratedHeader + `
# __generated__ by Plinth from "q83v"
resource "random_id" "r" {
  byte_length = 8
  prefix      = "x-"
  token       = null # sensitive
  rule {
    port = 80
  }
}
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("generated (-want +got):\n%s", diff)
	}
}

// TestGenerateConfigOut: an import block with no resource block is an
// error without --generate-config-out; with it, the resource is imported
// and its configuration written, and an existing file is refused.
func TestGenerateConfigOut(t *testing.T) {
	dir := t.TempDir()
	main := "import {\n  to = random_id.r\n  id = \"q83v\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Program(nil, program.Options{}); err == nil || !strings.Contains(err.Error(), "--generate-config-out") {
		t.Fatalf("without the option: %v, want the error naming --generate-config-out", err)
	}
	out := filepath.Join(dir, "gen.tf")
	ev, err := c.Program(nil, program.Options{GenerateConfigOut: out})
	if err != nil {
		t.Fatal(err)
	}
	num := schema.Type{Kind: schema.TypeInteger}
	mon := &fakeMonitor{preview: true, regs: map[string]engine.Registration{},
		imported: resource.Object{"byte_length": resource.NewNumber(4), "hex": resource.NewString("abab"), "id": resource.NewString("q83v")},
		schema: &schema.Schema{Resources: map[string]schema.ResourceSchema{"random:index:random_id": {
			Inputs: map[string]schema.Property{"byte_length": {Type: num, Required: true}}}}}}
	if err := ev.Run(context.Background(), mon); err != nil {
		t.Fatal(err)
	}
	if reg := mon.regs["random_id.r"]; reg.ImportID != "q83v" {
		t.Errorf("registration %+v, want an import of q83v", reg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := GeneratedHeader + "\n# __generated__ by Plinth from \"q83v\"\nresource \"random_id\" \"r\" {\n  byte_length = 4\n}\n"
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", out, diff)
	}
	if _, err := c.Program(nil, program.Options{GenerateConfigOut: out}); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("an existing file: %v, want it refused", err)
	}
}

// TestGenerateConfigOutUnsupported: as terraform 1.11, configuration is
// not generated for an import with for_each, an instance of a counted or
// for_each resource, or a target in a module; each is refused up front,
// with terraform's message, and no file is written.
func TestGenerateConfigOutUnsupported(t *testing.T) {
	tests := map[string]struct {
		main string
		want []string
	}{
		"import with for_each": {main: "import {\n  for_each = { a = \"x\" }\n  to = random_id.r[each.key]\n  id = each.value\n}\n",
			want: []string{"main.tf:1", "not compatible with config generation", "for_each, or resources which use for_each or count", "random_id.r"}},
		"counted instance": {main: "import {\n  to = random_id.r[0]\n  id = \"x\"\n}\n",
			want: []string{"not compatible with config generation", "random_id.r"}},
		"for_each instance": {main: "import {\n  to = random_id.r[\"a\"]\n  id = \"x\"\n}\n",
			want: []string{"not compatible with config generation"}},
		"module target": {main: "import {\n  to = module.m.random_id.r\n  id = \"x\"\n}\n",
			want: []string{"module.m.random_id.r does not exist", "All target instances must have an associated configuration", "root module"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(tc.main), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "gen.tf")
			_, err = c.Program(nil, program.Options{GenerateConfigOut: out})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range append(tc.want, "Configuration for import target does not exist") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%s", w, err)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was written", out)
			}
		})
	}
}
