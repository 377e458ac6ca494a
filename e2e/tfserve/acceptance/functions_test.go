package acceptance

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestAccDataSourcesAndFunctions: the built-in provider's two functions,
// getEnv and readFile, served to terraform both as data sources
// (plinth_get_env, plinth_read_file) and as provider functions
// (provider::plinth::get_env, ...::read_file): each answers what the
// environment and the file hold, a second plan is empty, a changed file
// is read again, and a missing file is an error that names it.
func TestAccDataSourcesAndFunctions(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "in.txt")
	t.Setenv("PLINTH_ACC_VAR", "from the environment")
	config := fmt.Sprintf(`
data "plinth_read_file" "in" { path = %q }
data "plinth_get_env" "set" { name = "PLINTH_ACC_VAR" }
data "plinth_get_env" "unset" {
  name    = "PLINTH_ACC_UNSET"
  default = "fallback"
}
output "data_content" { value = data.plinth_read_file.in.content }
output "data_size"    { value = data.plinth_read_file.in.size }
output "data_env"     { value = data.plinth_get_env.set.value }
output "data_default" { value = "${data.plinth_get_env.unset.value} ${data.plinth_get_env.unset.exists}" }
output "fn_content"   { value = provider::plinth::read_file(%q).content }
output "fn_sha256"    { value = provider::plinth::read_file(%q).sha256 }
output "fn_env"       { value = provider::plinth::get_env("PLINTH_ACC_VAR", null).value }
output "fn_default"   { value = provider::plinth::get_env("PLINTH_ACC_UNSET", "fallback").exists }
`, path, path, path)
	write := func(s string) func() {
		return func() {
			if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	run(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				PreConfig: write("one\n"), // each protocol's run starts here
				Config:    config,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckOutput("data_content", "one\n"),
					resource.TestCheckOutput("data_size", "4"),
					resource.TestCheckOutput("data_env", "from the environment"),
					resource.TestCheckOutput("data_default", "fallback false"),
					resource.TestCheckOutput("fn_content", "one\n"),
					resource.TestCheckOutput("fn_sha256", "2c8b08da5ce60398e1f19af0e5dccc744df274b826abe585eaba68c525434806"),
					resource.TestCheckOutput("fn_env", "from the environment"),
					resource.TestCheckOutput("fn_default", "false"),
				),
			},
			{
				PreConfig: write("two, longer\n"),
				Config:    config,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckOutput("data_content", "two, longer\n"),
					resource.TestCheckOutput("data_size", "12"),
					resource.TestCheckOutput("fn_content", "two, longer\n"),
				),
			},
		},
	})
}

// TestAccReadMissingFile: reading a file that is not there, through the
// data source or the function, is an error naming the file. Each has a
// test case of its own, since the framework's destroy at the end of a
// case evaluates its last configuration again.
func TestAccReadMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.txt")
	for _, config := range []string{
		fmt.Sprintf(`data "plinth_read_file" "gone" { path = %q }`, missing),
		fmt.Sprintf(`output "gone" { value = provider::plinth::read_file(%q).content }`, missing),
	} {
		run(t, resource.TestCase{Steps: []resource.TestStep{{
			Config:      config,
			ExpectError: regexp.MustCompile(`missing\.txt:\s+no\s+such\s+file`),
		}}})
	}
}

// TestAccBuiltinInvalidConfig: a configuration the built-in provider
// refuses fails terraform's plan with the provider's reason, at the
// attribute it names, before anything is created.
func TestAccBuiltinInvalidConfig(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ config, want string }{
		{`resource "plinth_random_pet" "p" { length = 0 }`, `length[\s\S]*must be at least 1`},
		{`resource "plinth_random_integer" "i" {
  min = 10
  max = 1
}`, `max[\s\S]*must not be less than min \(10\)`},
		{`resource "plinth_random_string" "s" {
  length  = 8
  special = false
  upper   = false
  lower   = false
  numeric = false
}`, `enable at least one character class`},
		{fmt.Sprintf(`resource "plinth_fs_file" "f" {
  path        = %q
  content     = "x"
  permissions = "rw-"
}`, filepath.Join(dir, "f.txt")), `"rw-" is not a file mode`},
		{fmt.Sprintf(`resource "plinth_fs_file" "f" { path = %q }`, filepath.Join(dir, "g.txt")), `set content \(text\) or source`},
	} {
		run(t, resource.TestCase{Steps: []resource.TestStep{{
			Config: tc.config,
			// terraform wraps the detail: any space may be a line break.
			ExpectError: regexp.MustCompile(strings.ReplaceAll(tc.want, " ", `\s+`)),
		}}})
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) > 0 {
		t.Errorf("refused configurations left %v (%v) in %s", entries, err, dir)
	}
}
