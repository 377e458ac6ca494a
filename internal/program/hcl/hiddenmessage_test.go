package hcl

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/program"
)

// TestMessagesHideMarkedValues: a condition's error message built from a
// sensitive or ephemeral value is never shown, whether the condition
// fails (its diagnostic says the message is withheld) or holds; either
// way a warning at error_message says why, as terraform warns. A message
// from plain values is shown as written.
func TestMessagesHideMarkedValues(t *testing.T) {
	const secret = "hunter2"
	tests := map[string]struct {
		block    string // a check block or a resource with a precondition
		want     string // what the error says; "": none
		warnings []string
	}{
		"failed check, sensitive": {
			block:    checkBlockText(`var.pw == "x"`, `"pw is ${var.pw}"`),
			warnings: []string{"Error message refers to sensitive values", "Check block assertion failed"},
		},
		"failed check, ephemeral": {
			block:    checkBlockText(`var.eph == "x"`, `"eph is ${var.eph}"`),
			warnings: []string{"Error message refers to ephemeral values", "Check block assertion failed"},
		},
		"passing check, sensitive": {
			block:    checkBlockText(`var.pw != "x"`, `"pw is ${var.pw}"`),
			warnings: []string{"Error message refers to sensitive values"},
		},
		"failed precondition, sensitive in a collection": {
			block: `resource "terraform_data" "d" {
  lifecycle {
    precondition {
      condition     = var.pw == "x"
      error_message = join(",", ["pre", var.pw])
    }
  }
}`,
			want:     "This condition failed; its error message is not shown",
			warnings: []string{"Error message refers to sensitive values"},
		},
		"failed check, plain": {
			block:    checkBlockText(`var.plain == "x"`, `"plain is ${var.plain}"`),
			warnings: []string{"Check block assertion failed"},
		},
	}
	vars := `variable "pw" {
  default   = "` + secret + `"
  sensitive = true
}
variable "eph" {
  default   = "` + secret + `"
  ephemeral = true
}
variable "plain" {
  default = "shown"
}
`
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var warnings, texts []string
			opts := program.Options{Warn: func(d program.Diagnostic) {
				warnings = append(warnings, d.Summary)
				texts = append(texts, d.Detail)
			}}
			_, err := runConfig(t, map[string]string{"main.tf": vars + tc.block}, opts, false)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if diff := cmp.Diff(tc.warnings, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			shown := strings.Join(texts, "\n")
			if err != nil {
				shown += err.Error()
			}
			if strings.Contains(shown, secret) {
				t.Errorf("a diagnostic shows the secret:\n%s", shown)
			}
			if strings.Contains(tc.block, "var.plain") && !strings.Contains(shown, "plain is shown") {
				t.Errorf("the plain message is not shown:\n%s", shown)
			}
		})
	}
}

// checkBlockText is a check block asserting condition with message.
func checkBlockText(condition, message string) string {
	return "check \"c\" {\n  assert {\n    condition     = " + condition + "\n    error_message = " + message + "\n  }\n}\n"
}
