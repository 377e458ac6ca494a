package terraform

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestImport adopts a random_string and a random_integer that exist only
// as IDs, adds the YAML plinth prints for each to the program, and checks
// that a preview then finds nothing to change and that the imported
// values are the ones the IDs carry.
func TestImport(t *testing.T) {
	t.Parallel()
	p := realProject(t, "import")
	for _, imp := range []struct {
		typ, name, id string
		done          []string // the finished steps
		snippet       string
	}{{
		typ: "random_string", name: "token", id: "abcDEF123",
		done: []string{"+ created random (pulumi:providers:random)", "= imported token (random:index:random_string)"},
		snippet: `  token:
    type: random_string
    properties:
      length: 9
      lower: true
      min_lower: 0
      min_numeric: 0
      min_special: 0
      min_upper: 0
      numeric: true
      special: true
      upper: true
`,
	}, {
		typ: "random_integer", name: "num", id: "15,1,20",
		done: []string{"= imported num (random:index:random_integer)"},
		snippet: `  num:
    type: random_integer
    properties:
      max: 20
      min: 1
`,
	}} {
		r := p.must("import", imp.typ, imp.name, imp.id, "--yes")
		if diff := cmp.Diff(imp.done, doneLines(r.Stdout)); diff != "" {
			t.Errorf("import %s (-want +got):\n%s\n%s", imp.name, diff, r.Stdout)
		}
		snippet := importSnippet(t, r.Stdout)
		if diff := cmp.Diff(imp.snippet, snippet); diff != "" {
			t.Errorf("the program snippet for %s (-want +got):\n%s", imp.name, diff)
		}
		p.addResources(snippet)
	}
	r := p.run("preview", "--detailed-exitcode")
	if r.Code != 0 || strings.Contains(r.Output(), "warning") {
		t.Errorf("preview after adding the snippets: exit %d, want 0 (no changes) and no warnings\n%s", r.Code, r.Output())
	}
	p.edit("outputs: {}\n", "outputs:\n  token: ${token.result}\n  num: ${num.result}\n")
	p.must("up", "--yes")
	if got := p.output("token"); got != "abcDEF123" {
		t.Errorf("the imported string's result = %q, want its ID", got)
	}
	if got := p.output("num"); got != "15" {
		t.Errorf("the imported integer's result = %q, want 15", got)
	}
}

// importSnippet returns the resource entries of the YAML that import
// prints, without the "resources:" line.
func importSnippet(t *testing.T, out string) string {
	t.Helper()
	_, after, ok := strings.Cut(out, "so that the program keeps managing")
	if !ok {
		t.Fatalf("import printed no program snippet:\n%s", out)
	}
	_, body, ok := strings.Cut(after, "\nresources:\n")
	if !ok {
		t.Fatalf("the import snippet has no resources section:\n%s", after)
	}
	return body
}
