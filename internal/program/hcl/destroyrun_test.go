package hcl

import (
	"testing"

	"github.com/plinth-iac/plinth/internal/program"
)

// TestDestroyRunChecks: the run that configures the providers for a
// destroy checks no precondition, postcondition or check assertion, as
// terraform's destroy checks none, but still refuses what terraform's
// destroy refuses: a failed variable validation and a root output that
// holds a sensitive value without sensitive = true.
func TestDestroyRunChecks(t *testing.T) {
	const conditions = `
variable "ok" {
  type    = bool
  default = false
}
resource "local_file" "f" {
  filename = "f"
  lifecycle {
    precondition {
      condition     = var.ok
      error_message = "resource pre"
    }
    postcondition {
      condition     = var.ok
      error_message = "resource post"
    }
  }
}
data "local_file" "d" {
  filename = local_file.f.filename
  lifecycle {
    postcondition {
      condition     = var.ok
      error_message = "data post"
    }
  }
}
output "o" {
  value = data.local_file.d.read
  precondition {
    condition     = var.ok
    error_message = "output pre"
  }
}
check "c" {
  assert {
    condition     = var.ok
    error_message = "check"
  }
}
`
	const validation = `
variable "v" {
  default = "bad"
  validation {
    condition     = var.v != "bad"
    error_message = "v is bad"
  }
}
`
	const sensitiveOutput = `
variable "s" {
  default   = "x"
  sensitive = true
}
output "s" { value = var.s }
`
	tests := map[string]struct {
		text    string
		destroy bool
		want    string // what the error says; "": none
	}{
		"conditions in an update":       {text: conditions, want: "resource pre"},
		"conditions in a destroy":       {text: conditions, destroy: true},
		"validation in a destroy":       {text: validation, destroy: true, want: "v is bad"},
		"sensitive output in a destroy": {text: sensitiveOutput, destroy: true, want: "Output refers to sensitive values"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var warnings []string
			opts := program.Options{Destroy: tc.destroy, Warn: func(d program.Diagnostic) { warnings = append(warnings, d.Summary) }}
			_, err := runConfig(t, map[string]string{"main.tf": tc.text}, opts, false)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.want != "" && (err == nil || !containsAll(err.Error(), tc.want)):
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if tc.destroy && len(warnings) > 0 {
				t.Errorf("a destroy's run warned: %q", warnings)
			}
		})
	}
}

// TestConditionConverts: a condition's value converts to bool as
// terraform converts it, so an untyped variable given -var ok=false
// fails the condition rather than being refused as not a bool.
func TestConditionConverts(t *testing.T) {
	const text = `
variable "ok" {}
resource "local_file" "f" {
  filename = "f"
  lifecycle {
    precondition {
      condition     = var.ok
      error_message = "not ok"
    }
  }
}
`
	tests := map[string]string{ // -var ok=...: what the error says ("": none)
		"true":  "",
		"false": "Resource precondition failed",
		"maybe": "Invalid condition result",
	}
	for value, want := range tests {
		t.Run(value, func(t *testing.T) {
			_, err := runConfig(t, map[string]string{"main.tf": text}, program.Options{Vars: []string{"ok=" + value}}, false)
			switch {
			case want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case want != "" && (err == nil || !containsAll(err.Error(), want)):
				t.Fatalf("error %v, want one saying %q", err, want)
			}
		})
	}
}
