package hcl

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/program"
)

// constrainedConfig is a root module and a child module that both use
// random, each with its own version constraint ("" for none), and with
// block set a provider "random" block in the root.
func constrainedConfig(root, child string, block bool) map[string]string {
	req := func(v string) string {
		if v == "" {
			return ""
		}
		return "terraform {\n  required_providers {\n    random = { source = \"hashicorp/random\", version = \"" + v + "\" }\n  }\n}\n"
	}
	return map[string]string{
		"main.tf": req(root) + map[bool]string{true: "provider \"random\" {}\n"}[block] +
			"module \"child\" {\n  source = \"./mod\"\n}\nresource \"random_pet\" \"p\" {}\n",
		"mod/main.tf": req(child) + "resource \"random_pet\" \"q\" {}\n",
	}
}

// TestCombinedConstraints checks that every module's constraints on a
// provider are joined, in the same order whichever module declares which,
// and reach the provider, each resource and the schema lookup alike.
func TestCombinedConstraints(t *testing.T) {
	cases := []struct {
		name, root, child, want string
	}{
		{"root narrower", "~> 3.6", ">= 3.0", ">= 3.0, ~> 3.6"},
		{"child narrower", ">= 3.0", "~> 3.6", ">= 3.0, ~> 3.6"},
		{"duplicates once", "~> 3.6", ">=3.0, ~> 3.6", ">= 3.0, ~> 3.6"},
		{"child only", "", "~> 3.6", "~> 3.6"},
		{"root only", "3.6.0", "", "3.6.0"},
		{"none", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string]string{}
			var schemas []string
			for _, block := range []bool{false, true} {
				mon, err := runConfig(t, constrainedConfig(tc.root, tc.child, block), program.Options{}, true)
				if err != nil {
					t.Fatal(err)
				}
				for n, reg := range mon.regs {
					if reg.Provider == "" {
						got[n] = reg.Version
					}
				}
				schemas = append(schemas, mon.schemaVersions...)
			}
			// The provider block registers as "default"; without it each
			// resource asks for the default provider at its version.
			want := map[string]string{"default": tc.want, "random_pet.p": tc.want, "module.child.random_pet.q": tc.want}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("versions (-want +got):\n%s", diff)
			}
			for _, sv := range schemas {
				if sv != "random@"+tc.want {
					t.Errorf("schema asked for %s, want random@%s", sv, tc.want)
				}
			}
			if len(schemas) == 0 {
				t.Error("the schema of random was never asked for")
			}
		})
	}
}

// TestUnsatisfiableConstraints checks that constraints no version can
// meet together are an error naming the provider, each constraint and
// where it is declared.
func TestUnsatisfiableConstraints(t *testing.T) {
	_, err := runConfig(t, constrainedConfig("~> 3.6", "< 3.0", false), program.Options{}, true)
	if err == nil {
		t.Fatal("want an error for ~> 3.6 with < 3.0")
	}
	msg := err.Error()
	for _, want := range []string{
		"Failed to query available provider packages",
		"hashicorp/random", "< 3.0, ~> 3.6",
		"main.tf:3:5 (the root module): \"~> 3.6\"",
		"main.tf:3:5 (module.child): \"< 3.0\"",
		"relax the one that excludes",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not say %q:\n%s", want, msg)
		}
	}
}

// TestSatisfiable checks the range reasoning behind the unsatisfiable
// constraints error.
func TestSatisfiable(t *testing.T) {
	cases := []struct {
		joined string
		want   bool
	}{
		{"", true},
		{">= 3.0, ~> 3.6", true},
		{"< 3.0, ~> 3.6", false},
		{"~> 3.6, >= 4.0", false},
		{"~> 3.6.1, >= 3.7", false},
		{"~> 3.6.1, < 3.6.2", true},
		{"~> 3", true},
		{"3.6.0, 3.7.0", false},
		{"3.6.0, != 3.6.0", false},
		{">= 3.6.0, <= 3.6.0", true},
		{"> 3.6.0, <= 3.6.0", false},
		{">= 1.0, < 2.0, != 1.5.0", true},
	}
	for _, tc := range cases {
		if got := satisfiable(tc.joined); got != tc.want {
			t.Errorf("satisfiable(%q) = %v, want %v", tc.joined, got, tc.want)
		}
	}
}
