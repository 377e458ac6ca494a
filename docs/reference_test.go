// Package docs_test keeps the generated reference pages under docs/ true
// to the code they describe. Run `go test ./docs -update` (or `go
// generate ./docs`) after changing the built-in provider's schema.
package docs_test

//go:generate go test -run TestBuiltinProviderReference -update .

import (
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/providers/plinth"
	"github.com/plinth-iac/plinth/sdk/provider"
)

var update = flag.Bool("update", false, "rewrite the generated reference pages")

// TestBuiltinProviderReference: docs/providers/plinth.md is generated
// from the built-in provider's schema, so it names only types and
// properties that exist.
func TestBuiltinProviderReference(t *testing.T) {
	resp, err := plinth.New().GetSchema(context.Background(), provider.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got := reference(resp.Schema)
	const path = "providers/plinth.md"
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./docs -update` to create it)", err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); diff != "" {
		t.Errorf("%s is out of date with the provider's schema; run `go test ./docs -update` (-want +got):\n%s", path, diff)
	}
}

// TestDocsNameRealTypes: every built-in type or function token the
// documentation names (plinth:fs:File, plinth:index:readFile) exists.
func TestDocsNameRealTypes(t *testing.T) {
	resp, err := plinth.New().GetSchema(context.Background(), provider.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, tok := range append(resp.Schema.ResourceTypes(), resp.Schema.FunctionTokens()...) {
		known[tok] = true
	}
	token := regexp.MustCompile(`\bplinth:[a-z]+:[A-Za-z]+\b`)
	for _, page := range []string{"programs.md", "cli.md", "architecture.md", "../README.md"} {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, tok := range token.FindAllString(string(data), -1) {
			if !known[tok] {
				t.Errorf("%s names %s, which the built-in provider does not have (see providers/plinth.md)", page, tok)
			}
		}
	}
}

// reference renders a provider's schema as a Markdown page.
func reference(s provider.Schema) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# The built-in provider `%s` (%s)\n\n", s.Name, s.Version)
	b.WriteString("<!-- Generated from the provider's schema by docs/reference_test.go; do not edit.\n")
	b.WriteString("     Regenerate with `go test ./docs -update`. -->\n\n")
	fmt.Fprintf(&b, "%s It is compiled into plinth: a program uses it with no `providers:` entry.\n\n", s.Description)
	b.WriteString("Resources:\n\n")
	for _, tok := range s.ResourceTypes() {
		fmt.Fprintf(&b, "- [`%s`](#%s)\n", tok, anchor(tok))
	}
	b.WriteString("\nFunctions (call them with `fn::invoke`):\n\n")
	for _, tok := range s.FunctionTokens() {
		fmt.Fprintf(&b, "- [`%s`](#%s)\n", tok, anchor(tok))
	}
	if len(s.Config) > 0 {
		b.WriteString("\n## Configuration\n\nSet in the stack config as `plinth:<name>`, or in an explicit provider's `properties`.\n\n")
		writeProperties(&b, s.Config, nil, false)
	}
	for _, tok := range s.ResourceTypes() {
		r := s.Resources[tok]
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n### Inputs\n\n", tok, r.Description)
		writeProperties(&b, r.Inputs, nil, false)
		b.WriteString("\n### Outputs\n\nEvery input, and:\n\n")
		writeProperties(&b, r.Outputs, r.Inputs, true)
	}
	for _, tok := range s.FunctionTokens() {
		f := s.Functions[tok]
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n### Arguments\n\n", tok, f.Description)
		writeProperties(&b, f.Inputs, nil, false)
		b.WriteString("\n### Result\n\n")
		writeProperties(&b, f.Outputs, nil, true)
	}
	return b.String()
}

// writeProperties writes a table of props, leaving out those in skip.
// Outputs say "always set" where inputs say "required".
func writeProperties(b *strings.Builder, props, skip map[string]provider.Property, outputs bool) {
	names := make([]string, 0, len(props))
	for n := range props {
		if _, ok := skip[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		b.WriteString("Nothing else.\n")
		return
	}
	b.WriteString("| name | type | notes | description |\n|---|---|---|---|\n")
	for _, n := range names {
		p := props[n]
		notes := strings.Join(flags(p), ", ")
		if outputs {
			notes = strings.Replace(notes, "required", "always set", 1)
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", n, cell(p.Type.String()), notes, cell(p.Description))
	}
}

// flags are a property's notes: required, secret, replaces, default.
func flags(p provider.Property) []string {
	var out []string
	if p.Required {
		out = append(out, "required")
	}
	if p.Secret {
		out = append(out, "secret")
	}
	if p.ReplaceOnChanges {
		out = append(out, "replaces on change")
	}
	if !p.Default.IsNull() {
		out = append(out, "default `"+p.Default.String()+"`")
	}
	return out
}

// cell escapes text for a table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "<", "&lt;")
	return strings.ReplaceAll(s, "\n", " ")
}

// anchor is the GitHub anchor of a heading: lower case, ':' dropped.
func anchor(heading string) string {
	return strings.ToLower(strings.NewReplacer(":", "", ".", "").Replace(heading))
}
