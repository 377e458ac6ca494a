package hcl

import (
	"context"
	"os"
	"path/filepath"
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
