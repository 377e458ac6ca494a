package docs_test

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/program/hcl/funcs"
)

// TestTerraformFunctionTable: the table under "## Built-in functions" in
// docs/terraform.md has one row per function plinth's Terraform front end
// offers, and says "yes" for each.
func TestTerraformFunctionTable(t *testing.T) {
	b, err := os.ReadFile("terraform.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Built-in functions\n")
	if !ok {
		t.Fatal(`docs/terraform.md has no "## Built-in functions" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9]+)` \\| [^|]+ \\| ([a-z]+) \\|").FindAllStringSubmatch(section, -1) {
		rows[m[1]] = m[2]
	}
	var wrong []string
	for name := range funcs.Table(t.TempDir()) {
		if !strings.HasPrefix(name, "core::") && rows[name] != "yes" {
			wrong = append(wrong, name)
		}
	}
	sort.Strings(wrong)
	if len(wrong) > 0 {
		t.Errorf("docs/terraform.md's function table lacks a \"yes\" row for %v", wrong)
	}
	if len(rows) != 118 {
		t.Errorf("docs/terraform.md's function table has %d rows, want Terraform 1.11's 118", len(rows))
	}
}
