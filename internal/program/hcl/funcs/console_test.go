package funcs

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

var update = flag.Bool("update", false, "re-record testdata/console.json by running `terraform console` on every case")

// consoleCase is one expression terraform console evaluated.
type consoleCase struct {
	Name string `json:"name"`
	Expr string `json:"expr"`
	// Out is what terraform console printed, or "" when it failed.
	Out string `json:"out,omitempty"`
	// Summary and Detail are terraform's error, whitespace-normalised.
	Summary string `json:"summary,omitempty"`
	Detail  string `json:"detail,omitempty"`
}

const goldenPath = "testdata/console.json"

// fixedHome is HOME for both terraform and the test, so pathexpand agrees.
const fixedHome = "/home/tester"

// TestConsole evaluates every case with Table and compares the result
// with what terraform 1.11 console printed for it (testdata/console.json).
// With -update it first re-records that file from terraform console.
func TestConsole(t *testing.T) {
	t.Setenv("HOME", fixedHome)
	if *update {
		record(t)
	}
	golden := loadGolden(t)
	// terraform console's path.module is ".", so error messages name
	// relative paths: evaluate the same way.
	t.Chdir("testdata/fs")
	ctx := consoleContext(t, ".")
	for _, c := range golden {
		t.Run(c.Name, func(t *testing.T) {
			got := evalCase(ctx, c.Expr)
			got.Name = c.Name
			if r, ok := newerHCL[c.Name]; ok {
				got.Detail = r.Replace(got.Detail)
			}
			if diff := cmp.Diff(c, got); diff != "" {
				t.Errorf("%s: terraform (-) and plinth (+) differ:\n%s", c.Expr, diff)
			}
		})
	}
}

// newerHCL undoes wording that differs only because plinth is built with a
// newer hcl than terraform 1.11 is: the message is the front end's, not a
// function's.
var newerHCL = map[string]*strings.Replacer{
	"templatestring/bad_value": strings.NewReplacer("string required, but have tuple", "string required"),
}

// TestConsoleCasesRecorded catches a case added to cases_test.go without
// running -update.
func TestConsoleCasesRecorded(t *testing.T) {
	recorded := map[string]string{}
	for _, c := range loadGolden(t) {
		recorded[c.Name] = c.Expr
	}
	for _, c := range consoleCases {
		if recorded[c.name] != c.expr {
			t.Errorf("case %s (%s) is not recorded: run go test -run TestConsole -update with terraform on PATH", c.name, c.expr)
		}
	}
}

func loadGolden(t *testing.T) []consoleCase {
	t.Helper()
	b, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("read %s: %v (run go test -run TestConsole -update with terraform on PATH)", goldenPath, err)
	}
	var cs []consoleCase
	if err := json.Unmarshal(b, &cs); err != nil {
		t.Fatalf("parse %s: %v", goldenPath, err)
	}
	return cs
}

// consoleContext is what an expression in terraform console sees: the
// functions and the locals of testdata/fs/main.tf.
func consoleContext(t *testing.T, dir string) *hcl.EvalContext {
	t.Helper()
	ctx := &hcl.EvalContext{Functions: Table(dir)}
	src, err := os.ReadFile(filepath.Join(dir, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	f, diags := hclsyntax.ParseConfig(src, "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	locals := map[string]cty.Value{}
	for _, b := range f.Body.(*hclsyntax.Body).Blocks {
		for name, a := range b.Body.Attributes {
			v, diags := a.Expr.Value(ctx)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			locals[name] = v
		}
	}
	ctx.Variables = map[string]cty.Value{"local": cty.ObjectVal(locals)}
	return ctx
}

// evalCase evaluates expr as terraform console would and renders the
// result or the first error the way the console prints them.
func evalCase(ctx *hcl.EvalContext, expr string) consoleCase {
	e, diags := hclsyntax.ParseExpression([]byte(expr), "<console-input>", hcl.InitialPos)
	if !diags.HasErrors() {
		var v cty.Value
		v, diags = e.Value(ctx)
		if !diags.HasErrors() {
			return consoleCase{Expr: expr, Out: formatValue(v, 0)}
		}
	}
	d := diags.Errs()[0].(*hcl.Diagnostic)
	return consoleCase{Expr: expr, Summary: d.Summary, Detail: normalise(d.Detail)}
}

var spaces = regexp.MustCompile(`\s+`)

// normalise undoes terraform's wrapping of diagnostics to the terminal.
func normalise(s string) string { return strings.TrimSpace(spaces.ReplaceAllString(s, " ")) }

// record runs terraform console on every case and writes the golden file.
func record(t *testing.T) {
	if _, err := exec.LookPath("terraform"); err != nil {
		t.Fatal("-update needs terraform 1.11 on PATH")
	}
	// A copy, so the state file console writes stays out of testdata.
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/fs")); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "terraformrc")
	if err := os.WriteFile(cfg, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	out := make([]consoleCase, len(consoleCases))
	for i, c := range consoleCases {
		out[i] = runConsole(t, dir, cfg, c.name, c.expr)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(goldenPath, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runConsole(t *testing.T, dir, cfg, name, expr string) consoleCase {
	cmd := exec.Command("terraform", "console", "-no-color")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cfg, "HOME="+fixedHome, "CHECKPOINT_DISABLE=1")
	cmd.Stdin = strings.NewReader(expr + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	c := consoleCase{Name: name, Expr: expr}
	if err == nil {
		c.Out = strings.TrimSuffix(stdout.String(), "\n")
		return c
	}
	m := consoleError.FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("%s: terraform console failed without a diagnostic: %v\n%s", expr, err, stderr.String())
	}
	c.Summary, c.Detail = m[1], normalise(m[2])
	return c
}

var consoleError = regexp.MustCompile(`(?s)Error: ([^\n]*)\n\n  on <console-input> line 1:\n  \(source code not available\)\n\n(.*)`)

// formatValue renders v as terraform console does.
func formatValue(v cty.Value, indent int) string {
	if !v.IsKnown() {
		return "(known after apply)"
	}
	if v.HasMark(Sensitive) {
		return "(sensitive value)"
	}
	if v.IsNull() {
		return formatNull(v.Type())
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return formatString(v.AsString(), indent)
	case ty == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case ty == cty.Bool:
		return fmt.Sprint(v.True())
	case ty.IsObjectType():
		return formatMapping(v, indent)
	case ty.IsTupleType():
		return formatSequence(v, indent)
	case ty.IsListType():
		return "tolist(" + formatSequence(v, indent) + ")"
	case ty.IsSetType():
		return "toset(" + formatSequence(v, indent) + ")"
	case ty.IsMapType():
		return "tomap(" + formatMapping(v, indent) + ")"
	}
	return fmt.Sprintf("%#v", v)
}

func formatNull(ty cty.Type) string {
	switch {
	case ty == cty.DynamicPseudoType:
		return "null"
	case ty == cty.String:
		return "tostring(null)"
	case ty == cty.Number:
		return "tonumber(null)"
	case ty == cty.Bool:
		return "tobool(null)"
	case ty.IsListType():
		return "tolist(null) /* of " + ty.ElementType().FriendlyName() + " */"
	case ty.IsSetType():
		return "toset(null) /* of " + ty.ElementType().FriendlyName() + " */"
	case ty.IsMapType():
		return "tomap(null) /* of " + ty.ElementType().FriendlyName() + " */"
	}
	return "null /* " + ty.FriendlyName() + " */"
}

func formatString(s string, indent int) string {
	lines := strings.Split(s, "\n")
	if len(lines) < 2 {
		return fmt.Sprintf("%q", s)
	}
	op, delim := "<<", "EOT"
	if indent > 0 {
		op = "<<-"
	}
	for conflict := true; conflict; {
		conflict = false
		for _, l := range lines {
			if strings.TrimSpace(l) == delim {
				delim += "_"
				conflict = true
				break
			}
		}
	}
	pad := strings.Repeat(" ", indent)
	var b strings.Builder
	b.WriteString(op + delim)
	for _, l := range lines {
		b.WriteString("\n" + pad + l)
	}
	b.WriteString("\n" + pad + delim)
	return b.String()
}

func formatSequence(v cty.Value, indent int) string {
	if v.LengthInt() == 0 {
		return "[]"
	}
	pad := strings.Repeat(" ", indent+2)
	var b strings.Builder
	b.WriteString("[\n")
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		b.WriteString(pad + formatValue(e, indent+2) + ",\n")
	}
	b.WriteString(strings.Repeat(" ", indent) + "]")
	return b.String()
}

func formatMapping(v cty.Value, indent int) string {
	if v.LengthInt() == 0 {
		return "{}"
	}
	pad := strings.Repeat(" ", indent+2)
	var b strings.Builder
	b.WriteString("{\n")
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		b.WriteString(fmt.Sprintf("%s%q = %s\n", pad, k.AsString(), formatValue(e, indent+2)))
	}
	b.WriteString(strings.Repeat(" ", indent) + "}")
	return b.String()
}
