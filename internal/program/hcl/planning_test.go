package hcl

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
)

// TestImpureFunctionsInAPlan: the program a preview runs (DryRun) has
// uuid(), timestamp() and bcrypt() unknown, in resource arguments,
// outputs and conditions, as a terraform plan has them; the program an
// update runs has them known.
func TestImpureFunctionsInAPlan(t *testing.T) {
	dir := t.TempDir()
	const text = `
resource "local_file" "f" {
  filename = "f"
  content  = uuid()
  lifecycle {
    precondition {
      condition     = timestamp() == "never"
      error_message = "checked during the plan"
    }
  }
}
output "hash" { value = bcrypt("x") }
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := c.Program(nil, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mon := &fakeMonitor{preview: true, regs: map[string]engine.Registration{}}
	if err := ev.DryRun().Run(context.Background(), mon); err != nil {
		t.Fatalf("the plan failed: %v", err)
	}
	if got := mon.regs["local_file.f"].Inputs["content"]; !got.IsUnknown() {
		t.Errorf("content = uuid() is %s in a plan, want unknown", got)
	}
	if got := mon.outputs["hash"]; !got.IsUnknown() {
		t.Errorf("output hash = bcrypt(...) is %s in a plan, want unknown", got)
	}
	mon = &fakeMonitor{regs: map[string]engine.Registration{}}
	err = ev.Run(context.Background(), mon)
	if err == nil || !containsAll(err.Error(), "Resource precondition failed", "checked during the plan") {
		t.Errorf("the update: %v, want the precondition on timestamp() to fail", err)
	}
}

// TestUntargetedResourceUnchecked: a resource the engine left alone,
// outside the operation's targets, has its postconditions unchecked, as
// terraform leaves it out of a targeted run; a resource in the run has
// them checked.
func TestUntargetedResourceUnchecked(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "t_thing" "left" {
  v = "old"
  lifecycle {
    postcondition {
      condition     = self.v == "new"
      error_message = "left is checked."
    }
  }
}
resource "t_thing" "kept" {
  v = "old"
  lifecycle {
    postcondition {
      condition     = self.v == "new"
      error_message = "kept is checked."
    }
  }
}
`}
	mon := &fakeMonitor{outcome: func(name string) (engine.StepOp, []string) {
		if name == "t_thing.left" {
			return "", nil
		}
		return engine.OpSame, nil
	}}
	_, err := runConfigOn(t, files, program.Options{}, mon)
	if err == nil || !strings.Contains(err.Error(), "kept is checked.") || strings.Contains(err.Error(), "left is checked.") {
		t.Errorf("want only kept's postcondition to fail, got: %v", err)
	}
}
