package tfserve

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// config is the terraform configuration of the lifecycle test: every
// built-in resource type, a data source, a provider-defined function and
// the test provider's sensitive attribute. The knobs change between steps.
type config struct {
	Content    string // plinth_fs_file.f: in-place update
	Command    string // plinth_exec_command.c: in-place update
	Sleep      string // plinth_time_sleep.t: in-place update
	PetLength  int    // replaces plinth_random_pet.p
	StrLength  int    // replaces plinth_random_string.s
	IntMax     int    // replaces plinth_random_integer.i
	Trigger    string // replaces plinth_exec_command.c
	SleepTrig  string // replaces plinth_time_sleep.t
	ImportFile bool   // declares plinth_fs_file.imported
}

func (c config) hcl() string {
	var b strings.Builder
	fmt.Fprintf(&b, `terraform {
  required_providers {
    plinth     = { source = "plinth-iac/plinth" }
    plinthtest = { source = "plinth-iac/plinthtest" }
  }
}
provider "plinth" {}
resource "plinth_random_pet" "p" {
  length  = %d
  keepers = { k = "v" }
}
resource "plinth_random_string" "s" {
  length  = %d
  special = false
}
resource "plinth_random_integer" "i" {
  min  = 1
  max  = %d
  seed = "plinth"
}
resource "plinth_fs_file" "f" {
  path    = "out.txt"
  content = %q
}
resource "plinth_exec_command" "c" {
  create   = %q
  triggers = [%q]
}
resource "plinth_time_sleep" "t" {
  create_duration = %q
  triggers        = { t = %q }
}
resource "plinthtest_thing" "secret" {
  title = "t"
  token = "hunter2"
}
data "plinth_read_file" "in" {
  path = "in.txt"
}
output "data_content" { value = data.plinth_read_file.in.content }
output "fn_value" { value = provider::plinth::get_env("PLINTH_E2E_VAR", "unset").value }
output "fn_size" { value = provider::plinth::read_file("in.txt").size }
`, c.PetLength, c.StrLength, c.IntMax, c.Content, c.Command, c.Trigger, c.Sleep, c.SleepTrig)
	if c.ImportFile {
		b.WriteString("resource \"plinth_fs_file\" \"imported\" {\n  path    = \"byhand.txt\"\n  content = \"made by hand\\n\"\n}\n")
	}
	return b.String()
}

var builtinTypes = []string{"plinth_exec_command", "plinth_fs_file", "plinth_random_integer",
	"plinth_random_pet", "plinth_random_string", "plinth_time_sleep"}

// TestTerraformDrivesPlinthProvider runs terraform on plinth's provider,
// over protocol 6 and protocol 5: validate, schema, plan, apply, a second
// plan with no changes, in-place updates, replacements, a refresh after a
// file is edited by hand, import, a data source, provider-defined
// functions, a sensitive attribute, and destroy, for every built-in type.
func TestTerraformDrivesPlinthProvider(t *testing.T) {
	t.Parallel()
	for _, protocol := range []int{6, 5} {
		t.Run(fmt.Sprintf("protocol%d", protocol), func(t *testing.T) {
			t.Parallel()
			w := newTF(t, protocol, bins.test1)
			w.env = append(w.env, "PLINTH_E2E_VAR=from-env")
			lifecycle(t, w)
		})
	}
}

func lifecycle(t *testing.T, w *tf) {
	c := config{Content: "one\n", Command: "echo one", Sleep: "1ms", PetLength: 2, StrLength: 8, IntMax: 1000, Trigger: "a", SleepTrig: "a"}
	w.write("in.txt", "input\n")
	w.write("main.tf", c.hcl())
	w.must("validate")
	checkSchema(t, w)

	plan := w.must("plan")
	for _, want := range []string{"Plan: 7 to add", "token  = (sensitive value)", `length    = 2`} {
		if !strings.Contains(plan, want) {
			t.Errorf("the first plan does not show %q:\n%s", want, plan)
		}
	}
	w.must("apply", "-auto-approve")
	first := stateOf(t, w)
	assertNoChanges(t, w, "after the first apply")
	outputs := outputsOf(t, w)
	want := map[string]any{"data_content": "input\n", "fn_value": "from-env", "fn_size": json.Number("6")}
	if diff := cmp.Diff(want, outputs); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	if got := first["plinth_fs_file.f"]["size"]; got != json.Number("4") {
		t.Errorf("file size = %v, want 4", got)
	}

	// In-place updates.
	c.Content, c.Command, c.Sleep = "two\n", "echo two", "2ms"
	w.write("main.tf", c.hcl())
	plan = w.must("plan")
	expectActions(t, plan, map[string]string{"plinth_fs_file.f": "updated in-place",
		"plinth_exec_command.c": "updated in-place", "plinth_time_sleep.t": "updated in-place"})
	w.must("apply", "-auto-approve")
	second := stateOf(t, w)
	if second["plinth_exec_command.c"]["stdout"] != "two" || second["plinth_exec_command.c"]["id"] != first["plinth_exec_command.c"]["id"] {
		t.Errorf("the command was not updated in place: %v -> %v", first["plinth_exec_command.c"], second["plinth_exec_command.c"])
	}
	assertNoChanges(t, w, "after the update")

	// Replacements.
	c.PetLength, c.StrLength, c.IntMax, c.Trigger, c.SleepTrig = 3, 9, 2000, "b", "b"
	w.write("main.tf", c.hcl())
	plan = w.must("plan")
	expectActions(t, plan, map[string]string{"plinth_random_pet.p": "replaced", "plinth_random_string.s": "replaced",
		"plinth_random_integer.i": "replaced", "plinth_exec_command.c": "replaced", "plinth_time_sleep.t": "replaced"})
	w.must("apply", "-auto-approve")
	third := stateOf(t, w)
	if n := len(strings.Split(third["plinth_random_pet.p"]["id"].(string), "-")); n != 3 {
		t.Errorf("the new pet %v has %d words, want 3", third["plinth_random_pet.p"]["id"], n)
	}
	if third["plinth_exec_command.c"]["id"] == second["plinth_exec_command.c"]["id"] {
		t.Error("the command kept its ID across a replacement")
	}
	assertNoChanges(t, w, "after the replacements")

	// The world changes outside: refresh sees it, apply puts it back.
	w.write("out.txt", "edited by hand\n")
	w.must("refresh")
	if got := stateOf(t, w)["plinth_fs_file.f"]["content"]; got != "edited by hand\n" {
		t.Errorf("after refresh the state holds content %q, want the edited file", got)
	}
	if _, code := w.planCode(); code != 2 {
		t.Errorf("plan after the file was edited exited %d, want 2 (changes)", code)
	}
	w.must("apply", "-auto-approve")
	if b, _ := os.ReadFile(filepath.Join(w.dir, "out.txt")); string(b) != "two\n" {
		t.Errorf("apply did not restore the file: %q", b)
	}

	// Import a file made by hand.
	w.write("byhand.txt", "made by hand\n")
	c.ImportFile = true
	w.write("main.tf", c.hcl())
	w.must("import", "plinth_fs_file.imported", "byhand.txt")
	if got := stateOf(t, w)["plinth_fs_file.imported"]["content"]; got != "made by hand\n" {
		t.Errorf("imported content = %v", got)
	}
	assertNoChanges(t, w, "after the import")
	w.write("main.tf", c.hcl()+"resource \"plinth_random_pet\" \"q\" {}\n")
	w.must("import", "plinth_random_pet.q", "some-pet")
	if got := stateOf(t, w)["plinth_random_pet.q"]; got["name"] != "some-pet" || got["length"] != json.Number("2") {
		t.Errorf("imported pet = %v, want name some-pet of length 2", got)
	}
	assertNoChanges(t, w, "after importing a pet")
	w.write("main.tf", c.hcl()+"resource \"plinth_exec_command\" \"q\" { create = \"true\" }\n")
	out, code := w.run("import", "plinth_exec_command.q", "abc")
	w.write("main.tf", c.hcl())
	if code == 0 || !strings.Contains(out, "cannot be imported") {
		t.Errorf("importing a command should fail saying it cannot be imported; exit %d:\n%s", code, out)
	}

	w.must("destroy", "-auto-approve")
	if left := stateOf(t, w); len(left) != 0 {
		t.Errorf("destroy left %v", left)
	}
	if _, err := os.Stat(filepath.Join(w.dir, "out.txt")); !os.IsNotExist(err) {
		t.Errorf("destroy left out.txt: %v", err)
	}
}

// checkSchema checks that terraform reads every built-in type's schema.
func checkSchema(t *testing.T, w *tf) {
	t.Helper()
	var s struct {
		ProviderSchemas map[string]struct {
			ResourceSchemas   map[string]any `json:"resource_schemas"`
			DataSourceSchemas map[string]any `json:"data_source_schemas"`
			Functions         map[string]any `json:"functions"`
		} `json:"provider_schemas"`
	}
	decode(t, w.must("providers", "schema", "-json"), &s)
	ps, ok := s.ProviderSchemas["registry.terraform.io/plinth-iac/plinth"]
	if !ok {
		t.Fatalf("terraform providers schema has no plinth-iac/plinth: %v", s)
	}
	var types []string
	for name := range ps.ResourceSchemas {
		types = append(types, name)
	}
	sort.Strings(types)
	if diff := cmp.Diff(builtinTypes, types); diff != "" {
		t.Errorf("resource types (-want +got):\n%s", diff)
	}
	if ps.DataSourceSchemas["plinth_read_file"] == nil || ps.Functions["get_env"] == nil {
		t.Errorf("data sources %v, functions %v", ps.DataSourceSchemas, ps.Functions)
	}
}

// stateOf returns each resource's attributes by address.
func stateOf(t *testing.T, w *tf) map[string]map[string]any {
	t.Helper()
	var shown struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Mode    string         `json:"mode"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	decode(t, w.must("show", "-json"), &shown)
	out := map[string]map[string]any{}
	for _, r := range shown.Values.RootModule.Resources {
		if r.Mode == "managed" {
			out[r.Address] = r.Values
		}
	}
	return out
}

func outputsOf(t *testing.T, w *tf) map[string]any {
	t.Helper()
	var raw map[string]struct {
		Value any `json:"value"`
	}
	decode(t, w.must("output", "-json"), &raw)
	out := map[string]any{}
	for k, v := range raw {
		out[k] = v.Value
	}
	return out
}

func assertNoChanges(t *testing.T, w *tf, when string) {
	t.Helper()
	if out, code := w.planCode(); code != 0 {
		t.Errorf("plan %s exited %d, want 0 (no changes):\n%s", when, code, out)
	}
}

// expectActions checks that a plan says "# <addr> will be <action>" (or
// "must be replaced") for each address.
func expectActions(t *testing.T, plan string, want map[string]string) {
	t.Helper()
	for addr, action := range want {
		phrase := "# " + addr + " will be " + action
		if action == "replaced" {
			phrase = "# " + addr + " must be replaced"
		}
		if !strings.Contains(plan, phrase) {
			t.Errorf("the plan does not say %q:\n%s", phrase, plan)
		}
	}
}

func decode(t *testing.T, text string, v any) {
	t.Helper()
	i := strings.IndexByte(text, '{')
	if i < 0 {
		t.Fatalf("no JSON in:\n%s", text)
	}
	dec := json.NewDecoder(strings.NewReader(text[i:]))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decoding JSON: %v\n%s", err, text)
	}
}
