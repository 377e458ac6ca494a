package hcl

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/program"
)

// TestUnknownMessageOfFailedCondition: a condition that fails while
// planning, whose error message is not known until apply, is reported as
// terraform reports it, "Invalid error message" at the message; one that
// holds says nothing of its message.
func TestUnknownMessageOfFailedCondition(t *testing.T) {
	const later = `resource "terraform_data" "later" {
  input = "x"
}
`
	tests := map[string]struct {
		block    string
		want     string // the error's summary and place; "": none
		warnings []string
	}{
		"failed precondition":   {block: precondition(`false`, `"id ${terraform_data.later.id}"`), want: "main.tf:8:23: Invalid error message"},
		"failed check":          {block: checkBlockText(`false`, `"id ${terraform_data.later.id}"`), warnings: []string{"Invalid error message"}},
		"holding precondition":  {block: precondition(`true`, `"id ${terraform_data.later.id}"`)},
		"failed, known message": {block: precondition(`false`, `"plain"`), want: "main.tf:7:23: Resource precondition failed"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var warnings []string
			opts := program.Options{Warn: func(d program.Diagnostic) { warnings = append(warnings, d.Summary) }}
			_, err := runConfig(t, map[string]string{"main.tf": later + tc.block}, opts, true)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if diff := cmp.Diff(tc.warnings, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// precondition is a resource with one precondition.
func precondition(condition, message string) string {
	return "resource \"terraform_data\" \"d\" {\n  lifecycle {\n    precondition {\n      condition     = " + condition +
		"\n      error_message = " + message + "\n    }\n  }\n}\n"
}
