package tftest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/program/hcl/funcs"
)

// TestAssertMessagesHideMarkedValues: an assert's error message built
// from a sensitive or ephemeral value is never shown; a warning at the
// message says why, whether the assertion holds or fails, as terraform
// test warns. A plain message is the failure's detail.
func TestAssertMessagesHideMarkedValues(t *testing.T) {
	const secret = "hunter2"
	vars := map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{
		"pw":    cty.StringVal(secret).Mark(funcs.Sensitive),
		"eph":   cty.StringVal(secret).Mark(funcs.Ephemeral),
		"plain": cty.StringVal("shown"),
	})}
	type outcome struct {
		Failed   bool
		Detail   string
		Warnings []string
	}
	hidden := "This condition failed; its error message is not shown (see the warning about it)."
	tests := map[string]struct {
		cond, message string
		want          outcome
	}{
		"failed, sensitive": {cond: `var.pw == "x"`, message: `"pw is ${var.pw}"`,
			want: outcome{Failed: true, Detail: hidden, Warnings: []string{"Error message refers to sensitive values"}}},
		"failed, ephemeral": {cond: `var.eph == "x"`, message: `"eph is ${var.eph}"`,
			want: outcome{Failed: true, Detail: hidden, Warnings: []string{"Error message refers to ephemeral values"}}},
		"holds, sensitive": {cond: `var.pw != "x"`, message: `"pw is ${var.pw}"`,
			want: outcome{Warnings: []string{"Error message refers to sensitive values"}}},
		"failed, plain": {cond: `var.plain == "x"`, message: `"plain is ${var.plain}"`,
			want: outcome{Failed: true, Detail: "plain is shown"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			a := assert{cond: parseExpr(t, tc.cond), message: parseExpr(t, tc.message)}
			d, warnings, _ := evalAssert(&hcl.EvalContext{Variables: vars}, a)
			var got outcome
			if d != nil {
				got.Failed, got.Detail = true, d.detail
			}
			for _, w := range warnings {
				got.Warnings = append(got.Warnings, w.summary)
				if strings.Contains(w.detail, secret) {
					t.Errorf("a warning shows the secret: %s", w.detail)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("outcome (-want +got):\n%s", diff)
			}
		})
	}
}

func parseExpr(t *testing.T, src string) hcl.Expression {
	t.Helper()
	e, ds := hclsyntax.ParseExpression([]byte(src), "a.tftest.hcl", hcl.InitialPos)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return e
}
