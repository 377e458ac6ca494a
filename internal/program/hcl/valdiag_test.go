package hcl

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/program"
)

// TestValidationDiagnostics: a failed variable validation lists the
// values its condition refers to, as terraform does; in a module whose
// call sets the variable, it is reported at the call's argument, in the
// context of the module block, naming the validation rule.
func TestValidationDiagnostics(t *testing.T) {
	mod := "variable \"size\" {\n  type = number\n  validation {\n    condition     = var.size < 10\n    error_message = \"Too big.\"\n  }\n}\n"
	call := func(args string) string {
		return "module \"big\" {\n  source = \"./mod\"\n" + args + "}\n"
	}
	type where struct {
		File         string
		Line, Column int
	}
	cases := map[string]struct {
		files  map[string]string
		where  where
		detail string
	}{
		"module call": {map[string]string{"main.tf": call("  size   = 50\n"), "mod/main.tf": mod},
			where{"main.tf", 3, 12},
			"on main.tf line 3, in module \"big\":\n3 |   size   = 50\n  |            ^^\n  | var.size is 50\n\nToo big.\n\nThis was checked by the validation rule at mod/main.tf:3,3-13."},
		"module default": {map[string]string{"main.tf": call(""), "mod/main.tf": strings.Replace(mod, "number\n", "number\n  default = 12\n", 1)},
			where{"mod/main.tf", 5, 21},
			"5 |     condition     = var.size < 10\n  |                     ^^^^^^^^^^^^^\n  | var.size is 12\n\nToo big."},
		"root": {map[string]string{"main.tf": strings.Replace(mod, "number\n", "number\n  default = 12\n", 1)},
			where{"main.tf", 5, 21},
			"5 |     condition     = var.size < 10\n  |                     ^^^^^^^^^^^^^\n  | var.size is 12\n\nToo big."},
		"sensitive": {map[string]string{"main.tf": strings.Replace(mod, "number\n", "number\n  default = 12\n  sensitive = true\n", 1)},
			where{"main.tf", 6, 21},
			"6 |     condition     = var.size < 10\n  |                     ^^^^^^^^^^^^^\n  | var.size has a sensitive value\n\nToo big."},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := runConfig(t, c.files, program.Options{}, false)
			var ds program.Diagnostics
			if !errors.As(err, &ds) || len(ds) != 1 || ds[0].Summary != "Invalid value for variable" {
				t.Fatalf("got %v, want one failed validation", err)
			}
			d := ds[0]
			if diff := cmp.Diff(c.where, where{d.File, d.Line, d.Column}); diff != "" {
				t.Errorf("place (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.detail, d.Detail); diff != "" {
				t.Errorf("detail (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNullForRequiredVariable: null given to a variable that is not
// nullable and has no default fails as terraform's does, "Required
// variable not set" at the value given, in the module block's context,
// naming the variable's address and declaration; the same when the null
// is known only once applied (a conditional on a resource's result),
// where terraform too fails at apply. It said "Invalid value for input
// variable" with plinth's own wording.
func TestNullForRequiredVariable(t *testing.T) {
	mod := "variable \"v\" {\n  type     = string\n  nullable = false\n}\noutput \"v\" { value = var.v }\n"
	call := func(value string) string {
		return "resource \"terraform_data\" \"d\" {}\nmodule \"a\" {\n  source = \"./mod\"\n  v      = " + value + "\n}\n"
	}
	cases := map[string]string{
		"known null":        "null",
		"null once applied": `terraform_data.d.id == "" ? "x" : null`,
	}
	for name, value := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := runConfig(t, map[string]string{"main.tf": call(value), "mod/main.tf": mod}, program.Options{}, false)
			var ds program.Diagnostics
			if !errors.As(err, &ds) || len(ds) != 1 {
				t.Fatalf("got %v, want one diagnostic", err)
			}
			d := ds[0]
			want := "on main.tf line 4, in module \"a\":\n4 |   v      = " + value + "\n  |            " + strings.Repeat("^", len(value)) +
				"\n\nThe given value is not suitable for module.a.var.v defined at mod/main.tf:1,1-13: required variable may not be set to null."
			got := struct{ Summary, Detail string }{d.Summary, d.Detail}
			if diff := cmp.Diff(struct{ Summary, Detail string }{"Required variable not set", want}, got); diff != "" {
				t.Errorf("diagnostic (-want +got):\n%s", diff)
			}
			// During the plan the null once applied is unknown: the
			// plan goes through, as terraform's does.
			_, err = runConfig(t, map[string]string{"main.tf": call(value), "mod/main.tf": mod}, program.Options{}, true)
			if (err == nil) != (value != "null") {
				t.Errorf("preview: %v", err)
			}
		})
	}
}
