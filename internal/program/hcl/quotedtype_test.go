package hcl

import (
	"testing"

	"github.com/plinth-iac/plinth/internal/program"
)

// TestQuotedTypeConstraints: a variable typed in quotes, as modules
// written for Terraform 0.11 do, is refused where the type is written
// with a diagnostic naming the spelling to use instead, not hcl's
// generic "Invalid type specification".
func TestQuotedTypeConstraints(t *testing.T) {
	tests := map[string]struct {
		typ  string
		want []string // what the error says; nil: none
	}{
		"list":     {typ: `"list"`, want: []string{"main.tf:2:13: Invalid quoted type constraint", `("list")`, "write list(string)"}},
		"map":      {typ: `"map"`, want: []string{"Invalid quoted type constraint", "write map(string)"}},
		"string":   {typ: `"string"`, want: []string{"Invalid quoted type constraint", "write string."}},
		"bare":     {typ: `list(string)`},
		"not text": {typ: `lst(string)`, want: []string{"main.tf:2:13: Invalid type specification"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			src := "variable \"v\" {\n  type    = " + tc.typ + "\n  default = null\n}\n"
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
