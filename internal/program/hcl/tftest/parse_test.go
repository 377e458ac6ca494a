package tftest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/program"
)

// TestParseErrors: every mistake Parse finds in a test file is a
// diagnostic at its file:line:col.
func TestParseErrors(t *testing.T) {
	tests := map[string][]string{
		"provider":               {"provider.tftest.hcl:1:1: Unsupported block in a test file"},
		"command_string":         {"command_string.tftest.hcl:2:13: Invalid run block command"},
		"command_keyword":        {"command_keyword.tftest.hcl:2:13: Invalid run block command"},
		"state_key":              {"state_key.tftest.hcl:2:3: Unsupported run block argument"},
		"plan_mode_string":       {"plan_mode_string.tftest.hcl:3:12: Invalid plan mode"},
		"plan_replace_string":    {"plan_replace_string.tftest.hcl:3:30: Invalid replace"},
		"plan_refresh":           {"plan_refresh.tftest.hcl:3:15: Invalid refresh option"},
		"expect_not_list":        {"expect_not_list.tftest.hcl:2:21: Invalid expect_failures"},
		"expect_expression":      {"expect_expression.tftest.hcl:2:32: Invalid expect_failures reference"},
		"duplicate_run":          {"duplicate_run.tftest.hcl:3:5: Duplicate run block"},
		"module_version":         {"module_version.tftest.hcl:4:5: Unsupported module version"},
		"module_source_type":     {"module_source_type.tftest.hcl:3:14: Invalid module source"},
		"module_registry":        {"module_registry.tftest.hcl:3:14: Unsupported module source"},
		"assert_no_message":      {"assert_no_message.tftest.hcl:2:10: Missing required argument"},
		"unknown_argument":       {"unknown_argument.tftest.hcl:2:3: Unsupported argument"},
		"syntax":                 {"syntax.tftest.hcl:1:9: Unclosed configuration block"},
		"mock_alias":             {"mock_alias.tftest.hcl:2:11: Invalid mock_provider alias"},
		"mock_source":            {"mock_source.tftest.hcl:2:3: Unsupported mock_provider argument"},
		"mock_override_target":   {"mock_override_target.tftest.hcl:3:14: Invalid override target"},
		"mock_during":            {"mock_during.tftest.hcl:2:21: Invalid override_during"},
		"mock_values":            {"mock_values.tftest.hcl:3:16: Invalid mock values"},
		"override_data":          {"override_data.tftest.hcl:2:12: Invalid override target"},
		"override_during":        {"override_during.tftest.hcl:4:23: Invalid override_during"},
		"override_module_target": {"override_module_target.tftest.hcl:2:12: Invalid override target"},
		"override_module_values": {"override_module_values.tftest.hcl:3:3: Unsupported argument"},
		"override_target":        {"override_target.tftest.hcl:2:12: Invalid override target"},
	}
	for name, want := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("testdata/bad", name+".tftest.hcl")
			var ds program.Diagnostics
			if !errors.As(err, &ds) {
				t.Fatalf("Parse returned %v, want diagnostics", err)
			}
			var got []string
			for _, d := range ds {
				got = append(got, d.Position()+": "+d.Summary)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParse reads a good file: commands, variables, assertions,
// expect_failures and a module block.
func TestParse(t *testing.T) {
	f, err := Parse("../../../../e2e/tflang/testdata/tftest/suite", "tests/07_module.tftest.hcl")
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		Name, Module  string
		Command       Command
		Vars, Asserts int
	}
	var got []run
	for _, r := range f.Runs() {
		got = append(got, run{Name: r.Name, Module: r.module, Command: r.Command, Vars: len(r.vars), Asserts: len(r.asserts)})
	}
	want := []run{
		{Name: "setup", Module: "./testing/setup", Command: Apply, Vars: 1, Asserts: 1},
		{Name: "main", Command: Apply, Vars: 1, Asserts: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
}

// TestParsePlanOptions reads the plan_options of each run: the
// addresses to replace and to target.
func TestParsePlanOptions(t *testing.T) {
	f, err := Parse("../../../../e2e/tflang/testdata/tftest/options", "tests/plan_options.tftest.hcl")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, r := range f.Runs() {
		if r.plan == nil {
			continue
		}
		var addrs []string
		for _, tr := range r.plan.replace {
			addrs = append(addrs, "replace "+traversalAddr(tr))
		}
		for _, tr := range r.plan.target {
			addrs = append(addrs, "target "+traversalAddr(tr))
		}
		got[r.Name] = addrs
	}
	want := map[string][]string{
		"replace":     {"replace random_pet.p"},
		"normal_mode": nil,
		"no_refresh":  nil,
		"targeted":    {"target random_pet.p"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plan options by run (-want +got):\n%s", diff)
	}
}

// TestFind lists the test files beside the configuration and in tests/,
// sorted, and keeps only the filtered ones.
func TestFind(t *testing.T) {
	dir := "../../../../e2e/tflang/testdata/tftest/suite"
	got, err := Find(dir, []string{"./root.tftest.hcl", "tests/06_state.tftest.hcl", "tests/none.tftest.hcl"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"root.tftest.hcl", "tests/06_state.tftest.hcl"}, got); diff != "" {
		t.Errorf("filtered files (-want +got):\n%s", diff)
	}
	all, err := Find(dir, nil)
	if err != nil || len(all) != 13 || all[0] != "root.tftest.hcl" {
		t.Errorf("Find(dir, nil) = %v, %v; want root.tftest.hcl and the 12 files in tests/", all, err)
	}
}
