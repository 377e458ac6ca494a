package display

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// tfRes is a recorded Terraform-provider resource at address addr.
func tfRes(typ, addr, id string, outputs resource.Object) *state.Resource {
	token := strings.Split(typ, "_")[0] + ":index:" + typ
	return &state.Resource{URN: urn(token, addr), Type: token, ID: id, Inputs: outputs, Outputs: outputs}
}

func tfEvent(op engine.StepOp, old, new *state.Resource, preview bool) engine.Event {
	r := new
	if r == nil {
		r = old
	}
	return engine.Event{Kind: engine.EventStepDone, Op: op, URN: r.URN, Type: r.Type, Old: old, New: new, Preview: preview, Duration: 1500 * time.Millisecond}
}

// tfPlanEvents are one preview's planned steps, out of address order as
// the engine sends them: every kind of change terraform marks.
func tfPlanEvents() []engine.Event {
	pet := tfRes("random_pet", "random_pet.name[0]", "", obj("length", 2, "separator", "-", "keepers", map[string]any{"a": "b"}))
	pet.Outputs = pet.Inputs.Copy()
	pet.Outputs["id"] = resource.Unknown()
	file := tfRes("local_file", `module.site["alpha"].local_file.page`, "", obj("filename", "a.txt", "content", resource.Unknown()))
	secret := tfRes("local_sensitive_file", "local_sensitive_file.key", "", obj("filename", "k.txt"))
	secret.Inputs["content"] = resource.MakeSecret(resource.NewString("hunter2"))
	secret.Outputs = secret.Inputs
	oldNote := tfRes("local_file", "local_file.note", "abc", obj("id", "abc", "filename", "n.txt", "content", "one", "file_permission", "0777"))
	newNote := tfRes("local_file", "local_file.note", engine.UnknownID, obj("filename", "n.txt", "content", "two", "file_permission", "0777"))
	replaceNote := tfEvent(engine.OpCreateReplacement, oldNote, newNote, true)
	replaceNote.Diff = resource.DetailedDiff{"content": {Kind: resource.DiffUpdate, Replace: true, InputDiff: true}}
	replaceNote.New.DeleteBeforeReplace = true
	oldData := tfRes("terraform_data", "terraform_data.cfg", "9b1f", obj("id", "9b1f", "input", "x", "output", "x"))
	newData := tfRes("terraform_data", "terraform_data.cfg", "9b1f", obj("input", "y"))
	newData.Outputs = obj("id", "9b1f", "input", "y", "output", resource.Unknown())
	updateData := tfEvent(engine.OpUpdate, oldData, newData, true)
	updateData.Diff = resource.DetailedDiff{"input": {Kind: resource.DiffUpdate, InputDiff: true}, "output": {Kind: resource.DiffUpdate}}
	gone := tfRes("random_pet", "random_pet.old", "witty-otter", obj("id", "witty-otter", "length", 2, "separator", "-"))
	return []engine.Event{
		tfEvent(engine.OpCreate, nil, pet, true),
		tfEvent(engine.OpDelete, gone, nil, true),
		replaceNote,
		tfEvent(engine.OpCreate, nil, file, true),
		tfEvent(engine.OpSame, oldNote, oldNote, true),
		updateData,
		tfEvent(engine.OpCreate, nil, secret, true),
		{Kind: engine.EventStepDone, Op: engine.OpCreate, URN: urn("pulumi:providers:random", "default"), Type: "pulumi:providers:random", Preview: true},
	}
}

// TestTerraformStyle renders a preview, an update and a destroy of a
// Terraform configuration in terraform's words and compares them with
// testdata/terraform/*.txt (rewrite them with -update).
func TestTerraformStyle(t *testing.T) {
	pet := tfRes("random_pet", "random_pet.name[0]", "simple-mudfish", obj("id", "simple-mudfish", "length", 2))
	start := tfEvent(engine.OpCreate, nil, pet, false)
	start.Kind = engine.EventStepStart
	counts := map[engine.StepOp]int{engine.OpCreate: 3, engine.OpUpdate: 1, engine.OpReplace: 1, engine.OpDelete: 1, engine.OpSame: 1}
	cases := map[string]struct {
		op      Operation
		events  []engine.Event
		outcome Outcome
	}{
		"plan.txt": {Operation{Verb: "update", Preview: true}, tfPlanEvents(), Outcome{
			Result:      &engine.Result{Counts: counts, Outputs: obj("pets", []any{resource.Unknown()}, "name", "x", "token", resource.MakeSecret(resource.NewString("s")))},
			DiffOutputs: true, PriorOutputs: obj("name", "x", "gone", 1)}},
		"no-changes.txt": {Operation{Verb: "update", Preview: true}, nil, Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpSame: 2}}, DiffOutputs: true}},
		"apply.txt": {Operation{Verb: "update"}, []engine.Event{start, tfEvent(engine.OpCreate, nil, pet, false)}, Outcome{
			Result:      &engine.Result{Counts: map[engine.StepOp]int{engine.OpCreate: 1}, Outputs: obj("pets", []any{"simple-mudfish"}, "token", resource.MakeSecret(resource.NewString("s")))},
			ShowOutputs: true}},
		"destroy.txt": {Operation{Verb: "destroy"}, []engine.Event{tfEvent(engine.OpDelete, pet, nil, false)}, Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpDelete: 1}}}},
		"failed.txt": {Operation{Verb: "update"}, []engine.Event{{Kind: engine.EventStepDone, Op: engine.OpCreate, URN: pet.URN, Type: pet.Type, Err: errors.New("provider said no")}},
			Outcome{Err: errors.New("1 resource failed")}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			v := New(Options{Out: &out, Style: StyleTerraform, Now: func() time.Time { return time.Time{} }})
			v.Begin(c.op)
			for _, e := range c.events {
				v.Event(e)
			}
			v.End(c.outcome)
			compareGolden(t, filepath.Join("testdata", "terraform", name), out.String())
		})
	}
}

// TestTerraformStyleLeavesPlinthAlone: the default style is plinth's own,
// whatever the events are.
func TestTerraformStyleLeavesPlinthAlone(t *testing.T) {
	var out bytes.Buffer
	v := New(Options{Out: &out})
	v.Begin(Operation{Verb: "update", Preview: true, Stack: "dev"})
	for _, e := range tfPlanEvents() {
		v.Event(e)
	}
	v.End(Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpCreate: 3}}})
	if s := out.String(); strings.Contains(s, "Plan:") || !strings.Contains(s, "Preview: 3 to create") {
		t.Errorf("the plinth style changed:\n%s", s)
	}
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); diff != "" {
		t.Errorf("%s differs (-want +got); if the change is deliberate, run with -update:\n%s", path, diff)
	}
}

// TestTerraformDeferredRead: a data source a preview leaves to apply is
// listed with terraform's "<=", the line naming terraform's reason, and
// its legend line; the plinth style and the counts ignore it.
func TestTerraformDeferredRead(t *testing.T) {
	urn := resource.NewURN("dev", "p", "", "local:index:local_file", "data.local_file.read")
	args := obj("filename", resource.Unknown())
	counts := &engine.Result{Counts: map[engine.StepOp]int{engine.OpCreate: 1}}
	reasons := map[program.DeferReason]string{
		program.ReadConfigUnknown:     "  # (config refers to values not yet known)\n",
		program.ReadDependencyPending: "  # (depends on a resource or a module with changes pending)\n",
	}
	for reason, why := range reasons {
		for _, style := range []Style{StyleTerraform, StylePlinth} {
			var out bytes.Buffer
			v := New(Options{Out: &out, Style: style, Scrubber: &Scrubber{}})
			v.Begin(Operation{Verb: "update", Preview: true, Stack: "dev"})
			v.Event(tfEvent(engine.OpCreate, nil, tfRes("local_file", "local_file.src", "", obj("filename", "a")), true))
			DeferredRead(v, urn, "local:index:local_file", args, reason)
			v.End(Outcome{Result: counts})
			s := out.String()
			want := []string{"  # data.local_file.read will be read during apply\n" + why + ` <= data "local_file" "read" {`,
				"      + filename = (known after apply)", " <= read (data resources)", "Plan: 1 to add, 0 to change, 0 to destroy."}
			for _, w := range want {
				if got := strings.Contains(s, w); got != (style == StyleTerraform) {
					t.Errorf("reason %d, style %q: output has %q: %v, want %v:\n%s", reason, style, w, got, style == StyleTerraform, s)
				}
			}
		}
	}
}

// TestTerraformCountsLeaveProvidersOut: an explicit provider
// configuration (a provider block), which the engine counts with the
// resources, is not counted in the plan or apply summary, as terraform
// never counts one.
func TestTerraformCountsLeaveProvidersOut(t *testing.T) {
	prov := &state.Resource{URN: urn("pulumi:providers:tls", "provider.tls"), Type: "pulumi:providers:tls", ID: "x"}
	def := &state.Resource{URN: urn("pulumi:providers:tls", "default"), Type: "pulumi:providers:tls", ID: "y"}
	key := tfRes("tls_private_key", "tls_private_key.k", "k1", obj("algorithm", "ED25519"))
	counts := &engine.Result{Counts: map[engine.StepOp]int{engine.OpCreate: 2}} // the key and provider.tls
	for _, preview := range []bool{true, false} {
		var out bytes.Buffer
		v := New(Options{Out: &out, Style: StyleTerraform, Scrubber: &Scrubber{}})
		v.Begin(Operation{Verb: "update", Preview: preview, Stack: "dev"})
		for _, r := range []*state.Resource{prov, def, key} {
			v.Event(tfEvent(engine.OpCreate, nil, r, preview))
		}
		v.End(Outcome{Result: counts})
		want := "Apply complete! Resources: 1 added, 0 changed, 0 destroyed."
		if preview {
			want = "Plan: 1 to add, 0 to change, 0 to destroy."
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("preview=%v: the summary is not %q:\n%s", preview, want, out.String())
		}
	}
}

// TestTerraformProviderOnlyChanges: a plan that changes only provider
// records (an old provider.random record dropped) says "No changes." for
// resources, as terraform would, and says what it will record, so the
// text agrees with --detailed-exitcode's 2.
func TestTerraformProviderOnlyChanges(t *testing.T) {
	old := &state.Resource{URN: urn("pulumi:providers:random", "provider.random"), Type: "pulumi:providers:random", ID: "x"}
	var out bytes.Buffer
	v := New(Options{Out: &out, Style: StyleTerraform, Scrubber: &Scrubber{}})
	v.Begin(Operation{Verb: "update", Preview: true, Stack: "dev"})
	v.Event(tfEvent(engine.OpDelete, old, nil, true))
	v.End(Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpDelete: 1}}})
	for _, want := range []string{"No changes.", "Plinth will update its record of 1 provider configuration"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the plan does not say %q:\n%s", want, out.String())
		}
	}
}

// TestTerraformOutputChangesAlignOverEveryOutput: "Changes to Outputs:"
// pads a changed output's name to the longest output name, unchanged
// ones included, as terraform 1.11.4 does ("~ pw   = (sensitive value)"
// beside an unchanged "pets").
func TestTerraformOutputChangesAlignOverEveryOutput(t *testing.T) {
	var out bytes.Buffer
	v := New(Options{Out: &out, Style: StyleTerraform, Scrubber: &Scrubber{}})
	v.Begin(Operation{Verb: "update", Preview: true, Stack: "dev"})
	prior := obj("pets", "a", "pw", "x")
	now := obj("pets", "a")
	now["pw"] = resource.Unknown()
	v.End(Outcome{Result: &engine.Result{Outputs: now}, DiffOutputs: true, PriorOutputs: prior})
	if want := "  ~ pw   = \"x\" -> (known after apply)\n"; !strings.Contains(out.String(), want) {
		t.Errorf("the output change is not %q:\n%s", want, out.String())
	}
}

// TestTerraformOutputFormat: outputs after an update are written as
// terraform 1.11.4 writes them (each want was printed by terraform apply
// for the same value): names not aligned, nested lists and objects one
// element a line, strings of several lines as heredocs.
func TestTerraformOutputFormat(t *testing.T) {
	cases := map[string]struct {
		v    resource.Value
		want string
	}{
		"tuple": {resource.MustFromGo([]any{1, "two", true, nil}), "tuple = [\n  1,\n  \"two\",\n  true,\n  null,\n]"},
		"object": {resource.MustFromGo(map[string]any{"a": nil, "b": "x", "long_key": 1}),
			"object = {\n  \"a\" = null\n  \"b\" = \"x\"\n  \"long_key\" = 1\n}"},
		"nested":            {resource.MustFromGo([]any{[]any{"a", 1}, map[string]any{}, []any{}}), "nested = [\n  [\n    \"a\",\n    1,\n  ],\n  {},\n  [],\n]"},
		"heredoc":           {resource.NewString("# alpha\n- beta\n"), "heredoc = <<EOT\n# alpha\n- beta\n\nEOT"},
		"heredoc delimiter": {resource.NewString("a\nEOT"), "heredoc delimiter = <<EOT_\na\nEOT\nEOT_"},
		"indented heredoc":  {resource.MustFromGo(map[string]any{"k": "x\ny"}), "indented heredoc = {\n  \"k\" = <<-EOT\n  x\n  y\n  EOT\n}"},
		"secret":            {resource.MakeSecret(resource.NewString("s")), "secret = <sensitive>"},
	}
	for name, c := range cases {
		got := strings.Join(tfOutputLines(name, c.v, nil), "\n")
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

// TestTFImportBlocks: an import with an update for the same address is
// one block, as terraform 1.11 writes it (recorded from its plan of
// e2e/tflang's importUpdateConfig); an import without changes has no
// marker and no legend.
func TestTFImportBlocks(t *testing.T) {
	const id = "0f9c5b4e"
	imported := tfRes("terraform_data", "terraform_data.d", id, obj("id", id))
	updated := tfRes("terraform_data", "terraform_data.d", id, obj("input", "hello"))
	updated.Outputs = obj("id", id, "input", "hello", "output", resource.Unknown())
	update := tfEvent(engine.OpUpdate, imported, updated, true)
	update.Diff = resource.DetailedDiff{"input": {Kind: resource.DiffAdd, InputDiff: true}}
	same := tfRes("terraform_data", "terraform_data.e", "abc", obj("id", "abc"))
	cases := map[string]struct {
		events []engine.Event
		counts map[engine.StepOp]int
		want   string
	}{
		"import then update": {[]engine.Event{tfEvent(engine.OpImport, nil, imported, true), update},
			map[engine.StepOp]int{engine.OpImport: 1, engine.OpUpdate: 1}, `
Resource actions are indicated with the following symbols:
  ~ update in-place

Plinth will perform the following actions:

  # terraform_data.d will be updated in-place
  # (imported from "0f9c5b4e")
  ~ resource "terraform_data" "d" {
        id     = "0f9c5b4e"
      + input  = "hello"
      + output = (known after apply)
    }

Plan: 1 to import, 0 to add, 1 to change, 0 to destroy.
`},
		"import alone": {[]engine.Event{tfEvent(engine.OpImport, nil, same, true)},
			map[engine.StepOp]int{engine.OpImport: 1}, `
Plinth will perform the following actions:

  # terraform_data.e will be imported
    resource "terraform_data" "e" {
        id = "abc"
    }

Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.
`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			v := New(Options{Out: &out, Style: StyleTerraform})
			v.Begin(Operation{Verb: "update", Preview: true, Stack: "dev"})
			for _, e := range c.events {
				v.Event(e)
			}
			v.End(Outcome{Result: &engine.Result{Counts: c.counts}})
			if diff := cmp.Diff(c.want, out.String()); diff != "" {
				t.Errorf("(-terraform +plinth):\n%s", diff)
			}
		})
	}
}

// TestTerraformRefreshLines: a refresh that opens a preview or an update
// (`preview --refresh`, `up --refresh`) reads as terraform's plan and
// apply read: "Refreshing state... [id=…]" as each object is read, in a
// preview too; no "Refresh complete" line per object nor "Refresh
// complete!" summary; no block for an object that did not change, and
// nothing at the end when none did (the plan after it says "No
// changes."). An object deleted outside plinth is listed under a note.
func TestTerraformRefreshLines(t *testing.T) {
	pet := tfRes("random_pet", "random_pet.p", "witty-otter", obj("id", "witty-otter", "length", 2))
	file := tfRes("local_file", "local_file.f", "abc", obj("id", "abc", "filename", "f.txt"))
	longer := tfRes("random_pet", "random_pet.p", "witty-otter", obj("id", "witty-otter", "length", 3))
	// events refresh pet and file; drift is "gone" (the file deleted
	// outside) or "changed" (the pet's length changed outside).
	events := func(preview bool, drift string) []engine.Event {
		var out []engine.Event
		for _, r := range []*state.Resource{pet, file} {
			start := tfEvent(engine.OpRefresh, r, r, preview)
			start.Kind = engine.EventStepStart
			done := tfEvent(engine.OpRefresh, r, r, preview)
			switch {
			case drift == "gone" && r == file:
				done.New = nil
			case drift == "changed" && r == pet:
				done.New, done.Diff = longer, resource.DetailedDiff{"length": {Kind: resource.DiffUpdate}}
			}
			out = append(out, start, done)
		}
		return out
	}
	refreshing := []string{"random_pet.p: Refreshing state... [id=witty-otter]", "local_file.f: Refreshing state... [id=abc]"}
	note := []string{"", "Note: Objects have changed outside of Plinth", "",
		"Plinth found these changes made outside of Plinth since it last recorded",
		"the objects; the plan below is made against what it found:", "",
		"  # random_pet.p has changed outside of Plinth"}
	trailer := []string{"    }", "",
		"Unless the configuration makes the same changes, or ignores these",
		"attributes with ignore_changes, the plan may undo or respond to them.", "",
		strings.Repeat("─", 77)}
	cases := map[string]struct {
		preview bool
		drift   string
		// head and tail are the output's first and last lines; the
		// block between them is TestTerraformStyle's business.
		head, tail []string
	}{
		"preview, no drift": {preview: true, head: refreshing},
		"update, no drift":  {head: refreshing},
		// terraform's plan does not note it: the plan creates it again.
		"preview, a file deleted outside": {preview: true, drift: "gone", head: refreshing},
		"preview, a pet changed outside": {preview: true, drift: "changed",
			head: append(append([]string(nil), refreshing...), note...), tail: trailer},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			v := New(Options{Out: &out, Style: StyleTerraform, Now: func() time.Time { return time.Time{} }})
			v.Begin(Operation{Verb: "refresh", Preview: c.preview, Prelude: true})
			for _, e := range events(c.preview, c.drift) {
				v.Event(e)
			}
			v.End(Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpSame: 2}}})
			got := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
			if c.tail == nil && len(got) != len(c.head) {
				t.Errorf("%d lines, want %d:\n%s", len(got), len(c.head), out.String())
			}
			if len(got) < len(c.head)+len(c.tail) {
				t.Fatalf("too few lines:\n%s", out.String())
			}
			if diff := cmp.Diff(c.head, got[:len(c.head)]); diff != "" {
				t.Errorf("first lines (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.tail, got[len(got)-len(c.tail):], cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("last lines (-want +got):\n%s", diff)
			}
		})
	}
}
