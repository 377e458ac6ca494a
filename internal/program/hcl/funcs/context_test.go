package funcs

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/bcrypt"
)

// eval evaluates expr with Table(baseDir, opts...) and the given variables.
func eval(t *testing.T, expr string, vars map[string]cty.Value, opts ...Option) (cty.Value, hcl.Diagnostics) {
	t.Helper()
	e, diags := hclsyntax.ParseExpression([]byte(expr), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return e.Value(&hcl.EvalContext{Functions: Table("testdata/fs", opts...), Variables: vars})
}

// TestContextFunctions covers what terraform console cannot record: values
// that depend on the plan, on time or on randomness, unknown values, and
// marks the front end sets (Ephemeral). Expectations follow Terraform's
// documented behaviour.
func TestContextFunctions(t *testing.T) {
	vars := map[string]cty.Value{
		"unknown_str":  cty.UnknownVal(cty.String),
		"unknown_list": cty.UnknownVal(cty.List(cty.String)),
		"eph":          cty.StringVal("token").Mark(Ephemeral),
		"eph_obj":      cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("t").Mark(Ephemeral).Mark(Sensitive), "b": cty.True}),
		"secret_path":  cty.StringVal("hello.txt").Mark(Sensitive),
	}
	tests := map[string]struct {
		expr string
		opts []Option
		want cty.Value
	}{
		"plantimestamp/set":          {`plantimestamp()`, []Option{WithPlanTimestamp("2025-01-02T03:04:05Z")}, cty.StringVal("2025-01-02T03:04:05Z")},
		"plantimestamp/unset":        {`plantimestamp()`, nil, cty.UnknownVal(cty.String)},
		"core::plantimestamp":        {`core::plantimestamp()`, []Option{WithPlanTimestamp("x")}, cty.StringVal("x")},
		"issensitive/unknown":        {`issensitive(unknown_str)`, nil, cty.UnknownVal(cty.Bool)},
		"length/unknown_list":        {`length(unknown_list)`, nil, cty.UnknownVal(cty.Number)},
		"upper/unknown":              {`upper(unknown_str)`, nil, cty.UnknownVal(cty.String)},
		"ephemeralasnull/top":        {`ephemeralasnull(eph)`, nil, cty.NullVal(cty.String)},
		"ephemeralasnull/nested":     {`ephemeralasnull(eph_obj)`, nil, cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String).Mark(Sensitive), "b": cty.True})},
		"ephemeral/propagates":       {`upper(eph)`, nil, cty.StringVal("TOKEN").Mark(Ephemeral)},
		"file/sensitive_path":        {`file(secret_path)`, nil, cty.StringVal("Hello, World!\n").Mark(Sensitive)},
		"fileexists/sensitive_path":  {`fileexists(secret_path)`, nil, cty.True.Mark(Sensitive)},
		"basedir/file":               {`filesha1("nested/a.txt")`, nil, cty.StringVal("86f7e437faa5a7fce15d1ddcb9eaeaea377667b8")},
		"templatefile/unknown_vars":  {`templatefile("tmpl/single.tftpl", {value = unknown_str})`, nil, cty.UnknownVal(cty.String)},
		"templatestring/unknown_var": {`templatestring(t, {name = unknown_str})`, nil, cty.UnknownVal(cty.String)},
	}
	vars["t"] = cty.StringVal("Hi ${name}")
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, diags := eval(t, tc.expr, vars, tc.opts...)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if !sameValue(got, tc.want) {
				t.Errorf("%s = %#v, want %#v", tc.expr, got, tc.want)
			}
		})
	}
}

// sameValue is RawEquals, except that an unknown value's refinements
// (which Terraform does not promise) are not compared.
func sameValue(got, want cty.Value) bool {
	if want.IsKnown() {
		return got.RawEquals(want)
	}
	g, gm := got.Unmark()
	_, wm := want.Unmark()
	return !g.IsKnown() && g.Type().Equals(want.Type()) && cmp.Equal(gm, wm)
}

// TestImpureFunctions checks the shape of results that change per call.
func TestImpureFunctions(t *testing.T) {
	tests := map[string]struct {
		expr string
		re   string
	}{
		"uuid":      {`uuid()`, `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`},
		"timestamp": {`timestamp()`, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`},
		"bcrypt":    {`bcrypt("hello")`, `^\$2a\$10\$`},
		"bcrypt/5":  {`bcrypt("hello", 5)`, `^\$2a\$05\$`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, diags := eval(t, tc.expr, nil)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if !regexp.MustCompile(tc.re).MatchString(got.AsString()) {
				t.Errorf("%s = %q, want a match for %s", tc.expr, got.AsString(), tc.re)
			}
		})
	}
	h, _ := eval(t, `bcrypt("hello")`, nil)
	if err := bcrypt.CompareHashAndPassword([]byte(h.AsString()), []byte("hello")); err != nil {
		t.Errorf("bcrypt's hash does not verify: %v", err)
	}
	a, _ := eval(t, `uuid()`, nil)
	b, _ := eval(t, `uuid()`, nil)
	if diff := cmp.Diff(a.AsString(), b.AsString()); diff == "" {
		t.Error("two uuid() calls returned the same value")
	}
}

// TestImpureFunctionsPlanning: in a plan's table the impure functions
// are unknown of their type, sensitive if their argument is, and still
// check their arguments, as in a terraform plan; a template that calls
// one is unknown too; pure functions are not touched.
func TestImpureFunctionsPlanning(t *testing.T) {
	tests := map[string]struct {
		expr    string
		want    cty.Value
		wantErr string
	}{
		"uuid":            {expr: `uuid()`, want: cty.UnknownVal(cty.String)},
		"timestamp":       {expr: `timestamp()`, want: cty.UnknownVal(cty.String)},
		"core::timestamp": {expr: `core::timestamp()`, want: cty.UnknownVal(cty.String)},
		"bcrypt":          {expr: `bcrypt("hello")`, want: cty.UnknownVal(cty.String)},
		"bcrypt secret":   {expr: `bcrypt(sensitive("hello"))`, want: cty.UnknownVal(cty.String).Mark(Sensitive)},
		"in a template":   {expr: `templatestring(tpl, {})`, want: cty.UnknownVal(cty.String)},
		"in an argument":  {expr: `upper(uuid())`, want: cty.UnknownVal(cty.String)},
		"bad argument":    {expr: `bcrypt("hello", "x")`, wantErr: "Invalid function argument"},
		"pure":            {expr: `upper("a")`, want: cty.StringVal("A")},
		"plantimestamp":   {expr: `plantimestamp()`, want: cty.StringVal("2026-01-02T03:04:05Z")},
	}
	vars := map[string]cty.Value{"tpl": cty.StringVal("${uuid()}")}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, diags := eval(t, tc.expr, vars, Planning(), WithPlanTimestamp("2026-01-02T03:04:05Z"))
			if tc.wantErr != "" {
				if !diags.HasErrors() || diags[0].Summary != tc.wantErr {
					t.Fatalf("%s: %v, want the error %q", tc.expr, diags, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if !sameValue(got, tc.want) {
				t.Errorf("%s = %#v, want %#v", tc.expr, got, tc.want)
			}
		})
	}
}
