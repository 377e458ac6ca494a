package hcl

import (
	"testing"

	"github.com/plinth-iac/plinth/internal/program"
)

// TestDataSourceConditions: a data source's lifecycle preconditions are
// checked before it is read and its postconditions, with self, after, as
// terraform checks them; either failing is an error at the condition.
func TestDataSourceConditions(t *testing.T) {
	const text = `
variable "f" { type = string }
data "chk_file" "d" {
  filename = var.f
  lifecycle {
    precondition {
      condition     = var.f != "bad"
      error_message = "f is bad"
    }
    postcondition {
      condition     = self.filename != "worse"
      error_message = "read worse"
    }
  }
}
output "read" { value = data.chk_file.d.read }
`
	tests := map[string]struct {
		f    string
		want []string // what the error says; nil: none
	}{
		"both hold":           {f: "ok"},
		"precondition fails":  {f: "bad", want: []string{"main.tf:7:23", "Resource precondition failed", "f is bad"}},
		"postcondition fails": {f: "worse", want: []string{"main.tf:11:23", "Resource postcondition failed", "read worse"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			mon, err := runConfig(t, map[string]string{"main.tf": text}, program.Options{Vars: []string{"f=" + tc.f}}, false)
			switch {
			case tc.want == nil && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.want == nil && !mon.outputs["read"].Bool():
				t.Errorf("output read = %s, want true", mon.outputs["read"])
			case tc.want != nil && (err == nil || !containsAll(err.Error(), tc.want...)):
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
			if tc.f == "bad" && len(mon.invokes) != 0 {
				t.Errorf("the data source was read despite its failed precondition")
			}
		})
	}
}
