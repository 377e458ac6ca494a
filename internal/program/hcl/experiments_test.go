package hcl

import (
	"testing"

	"github.com/plinth-iac/plinth/internal/program"
)

// TestExperimentsRefused: a terraform block naming language experiments
// is refused at each name, as released terraform refuses it (a module
// written for Terraform 1.2 with module_variable_optional_attrs); a
// concluded experiment is named with what replaced it. An empty list
// asks for nothing and loads.
func TestExperimentsRefused(t *testing.T) {
	tests := map[string]struct {
		list string
		want []string // what the error says; nil: none
	}{
		"concluded": {list: "[module_variable_optional_attrs]", want: []string{
			"main.tf:2:18: Module uses experimental features", `"module_variable_optional_attrs"`, "optional(TYPE, DEFAULT)"}},
		"unknown":     {list: "[shiny_new_thing]", want: []string{"main.tf:2:18: Module uses experimental features", `"shiny_new_thing"`, "Remove it from experiments"}},
		"second name": {list: "[variable_validation, config_driven_move]", want: []string{"main.tf:2:18:", "main.tf:2:39:", "moved blocks"}},
		"not a list":  {list: `"x"`, want: []string{"main.tf:2:17: Invalid experiments argument"}},
		"empty":       {list: "[]"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			src := "terraform {\n  experiments = " + tc.list + "\n}\noutput \"o\" {\n  value = 1\n}\n"
			_, err := runConfig(t, map[string]string{"main.tf": src}, program.Options{}, false)
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !containsAll(err.Error(), tc.want...) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}
