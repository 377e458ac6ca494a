package install

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJoinAtoms: constraints are written as terraform's lock file writes
// them (terraform init wrote ">= 3.0.0, ~> 3.6, < 4.0.0" for a root
// module's ">= 3.0, < 4.0" and a module's "~> 3.6"; see the side-by-side
// test in internal/cli).
func TestJoinAtoms(t *testing.T) {
	for name, tc := range map[string]struct {
		in   []string
		want string
	}{
		"bounds in full, pessimistic as given": {[]string{">= 3.0", "< 4.0", "~> 3.6"}, ">= 3.0.0, ~> 3.6, < 4.0.0"},
		"duplicates once":                      {[]string{"~> 3.6", "~>3.6", " ~> 3.6 "}, "~> 3.6"},
		"exactly is bare":                      {[]string{"= 1.2", "1.2.0"}, "1.2.0"},
		"none":                                 {nil, ""},
	} {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, joinAtoms(tc.in)); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestRequirements: required_providers of the root and a local module
// are combined per provider, a resource's provider nobody declares is
// hashicorp/NAME with no constraint, and a module terraform init
// installed (modules.json) is read too.
func TestRequirements(t *testing.T) {
	dir := t.TempDir()
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "main.tf"), `
terraform {
  required_providers {
    random    = { source = "example.com:8443/acme/random", version = ">= 3.0" }
    terraform = { source = "terraform.io/builtin/terraform" }
  }
}
module "m" { source = "./m" }
module "reg" { source = "acme/thing/aws" }
resource "random_pet" "p" {}
resource "tls_private_key" "k" {}
resource "terraform_data" "d" {}
`)
	write(filepath.Join(dir, "m", "main.tf"), `
terraform {
  required_providers {
    random = { source = "example.com:8443/acme/random", version = "~> 3.6" }
  }
}
`)
	write(filepath.Join(dir, ".terraform", "modules", "reg", "main.tf"), `
resource "time_sleep" "s" {}
`)
	write(filepath.Join(dir, ".terraform", "modules", "modules.json"),
		`{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"reg","Source":"registry.terraform.io/acme/thing/aws","Version":"1.0.0","Dir":".terraform/modules/reg"}]}`)
	files := func(d string) ([]string, error) { return filepath.Glob(filepath.Join(d, "*.tf")) }
	reqs, err := Requirements(dir, files)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range reqs {
		got[r.Source.String()] = r.Constraints
	}
	want := map[string]string{
		"example.com:8443/acme/random":         ">= 3.0.0, ~> 3.6",
		"registry.terraform.io/hashicorp/tls":  "",
		"registry.terraform.io/hashicorp/time": "",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("requirements (-want +got):\n%s", diff)
	}
}
