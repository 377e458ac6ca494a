package hcl

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
)

// runOutcomes runs main.tf with a monitor that reports outcomes.
func runOutcomes(t *testing.T, text string, outcome func(string) (engine.StepOp, []string)) (*fakeMonitor, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil {
		return nil, err
	}
	ev, err := c.Program(nil, program.Options{Getenv: func(string) string { return "" }})
	if err != nil {
		return nil, err
	}
	mon := &fakeMonitor{regs: map[string]engine.Registration{}, outcome: outcome}
	return mon, ev.Run(context.Background(), mon)
}

const triggersConfig = `
resource "terraform_data" "src" {
  count = 2
  input = count.index
}
resource "terraform_data" "whole" {
  lifecycle { replace_triggered_by = [terraform_data.src] }
}
resource "terraform_data" "each" {
  count = 2
  lifecycle { replace_triggered_by = [terraform_data.src[count.index]] }
}
resource "terraform_data" "attr" {
  lifecycle { replace_triggered_by = [terraform_data.src[0].input] }
}
resource "terraform_data" "cbd" {
  lifecycle { create_before_destroy = true }
}
`

// TestReplaceTriggeredBy: a registration is forced to replace when what
// its replace_triggered_by names was replaced or updated (for an
// attribute: that attribute changed), per instance with count.index.
func TestReplaceTriggeredBy(t *testing.T) {
	cases := map[string]struct {
		src1 engine.StepOp
		chg  []string
		want []string
	}{
		"nothing happened":        {engine.OpSame, nil, nil},
		"src[1] created":          {engine.OpCreate, nil, nil},
		"src[1] replaced":         {engine.OpReplace, []string{"input"}, []string{"terraform_data.each[1]", "terraform_data.whole"}},
		"src[1] updated":          {engine.OpUpdate, []string{"input"}, []string{"terraform_data.each[1]", "terraform_data.whole"}},
		"src[1] updated, no attr": {engine.OpUpdate, []string{"other"}, []string{"terraform_data.each[1]", "terraform_data.whole"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mon, err := runOutcomes(t, triggersConfig, func(n string) (engine.StepOp, []string) {
				if n == "terraform_data.src[1]" {
					return tc.src1, tc.chg
				}
				return engine.OpSame, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var forced []string
			for _, n := range names(mon) {
				if mon.regs[n].ForceReplace {
					forced = append(forced, n)
				}
			}
			if diff := cmp.Diff(tc.want, forced); diff != "" {
				t.Errorf("forced replacements (-want +got):\n%s", diff)
			}
			if !mon.regs["terraform_data.cbd"].CreateBeforeDestroy || mon.regs["terraform_data.whole"].CreateBeforeDestroy {
				t.Errorf("create_before_destroy did not reach the registrations")
			}
		})
	}
}

// TestReplaceTriggeredByAttribute: a reference to an attribute triggers
// only when that attribute changes (or its resource is replaced).
func TestReplaceTriggeredByAttribute(t *testing.T) {
	for op, want := range map[engine.StepOp]bool{engine.OpUpdate: true, engine.OpReplace: true, engine.OpSame: false} {
		mon, err := runOutcomes(t, triggersConfig, func(n string) (engine.StepOp, []string) {
			if n == "terraform_data.src[0]" {
				return op, []string{"input"}
			}
			return engine.OpSame, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := mon.regs["terraform_data.attr"].ForceReplace; got != want {
			t.Errorf("src[0] %s: attr forced %v, want %v", op, got, want)
		}
	}
	mon, err := runOutcomes(t, triggersConfig, func(n string) (engine.StepOp, []string) {
		if n == "terraform_data.src[0]" {
			return engine.OpUpdate, []string{"other"}
		}
		return engine.OpSame, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if mon.regs["terraform_data.attr"].ForceReplace {
		t.Errorf("an update of another attribute triggered the replacement")
	}
}

func TestReplaceTriggeredByInvalid(t *testing.T) {
	_, err := runOutcomes(t, `
variable "v" { default = "x" }
resource "terraform_data" "a" {
  lifecycle { replace_triggered_by = [var.v] }
}`, nil)
	if err == nil || !cmp.Equal(true, containsAll(err.Error(), "Invalid replace_triggered_by expression", "main.tf")) {
		t.Errorf("a variable in replace_triggered_by: %v", err)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
