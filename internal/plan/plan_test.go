package plan_test

import (
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/plan"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// fakeCrypter "seals" with base64: enough to round-trip the key.
type fakeCrypter struct{}

func (fakeCrypter) Seal(p []byte) (string, error) { return base64.StdEncoding.EncodeToString(p), nil }
func (fakeCrypter) Open(c string) ([]byte, error) {
	return base64.StdEncoding.DecodeString(c)
}

var urn = resource.NewURN("dev", "proj", "", "pkg:index:Thing", "a")

func step(op engine.StepOp, inputs resource.Object) engine.PlannedStep {
	return engine.PlannedStep{URN: urn, Type: "pkg:index:Thing", Op: op, Inputs: inputs}
}

// saved records steps in a plan, writes and reads it back.
func saved(t *testing.T, steps ...engine.PlannedStep) (*plan.Plan, string) {
	t.Helper()
	p, err := plan.New(plan.Header{Stack: "dev"}, fakeCrypter{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		_ = p.Record(s)
	}
	path := filepath.Join(t.TempDir(), "p.plan")
	if err := p.Write(path); err != nil {
		t.Fatal(err)
	}
	got, err := plan.Read(path, "dev", fakeCrypter{})
	if err != nil {
		t.Fatal(err)
	}
	return got, path
}

// TestVerifier: an update's step is allowed when the plan holds it with
// the same inputs (any value where the preview had an unknown), once;
// another op or other inputs are refused; a planned step not taken is
// reported.
func TestVerifier(t *testing.T) {
	secret := resource.MakeSecret(resource.NewString("s3cr3t"))
	previewed := step(engine.OpCreate, resource.Object{"x": resource.NewNumber(1), "y": resource.Unknown(), "s": secret})
	tests := map[string]struct {
		steps   []engine.PlannedStep
		refused string // the error's text, "" for allowed
		left    bool
	}{
		"same inputs":  {steps: []engine.PlannedStep{step(engine.OpCreate, resource.Object{"x": resource.NewNumber(1), "y": resource.NewString("now known"), "s": secret})}},
		"other input":  {steps: []engine.PlannedStep{step(engine.OpCreate, resource.Object{"x": resource.NewNumber(2), "y": resource.NewString("k"), "s": secret})}, refused: "other inputs: inputs x", left: true},
		"other secret": {steps: []engine.PlannedStep{step(engine.OpCreate, resource.Object{"x": resource.NewNumber(1), "y": resource.NewString("k"), "s": resource.MakeSecret(resource.NewString("other"))})}, refused: "inputs s", left: true},
		"another op":   {steps: []engine.PlannedStep{step(engine.OpUpdate, nil)}, refused: "the plan has no such step", left: true},
		"twice":        {steps: []engine.PlannedStep{previewed, previewed}, refused: "the plan has no such step"},
		"not taken":    {left: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p, path := saved(t, previewed)
			v := p.Verifier(path)
			var err error
			for _, s := range tc.steps {
				if err = v.Check(s); err != nil {
					break
				}
			}
			if tc.refused == "" && err != nil || tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)) {
				t.Errorf("Check: %v, want refused %q", err, tc.refused)
			}
			if left := v.Unapplied(); (left != nil) != tc.left {
				t.Errorf("Unapplied: %v, want an error: %v", left, tc.left)
			}
		})
	}
}

// TestReadRefusesAnotherStackAndATamperedFile: a plan of another stack,
// and a plan file edited by hand, are refused.
func TestReadRefusesAnotherStackAndATamperedFile(t *testing.T) {
	_, path := saved(t, step(engine.OpCreate, resource.Object{"x": resource.NewNumber(1)}))
	if _, err := plan.Read(path, "prod", fakeCrypter{}); err == nil || !strings.Contains(err.Error(), "made for stack dev, and this is stack prod") {
		t.Errorf("another stack: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"op": "create"`, `"op": "delete"`, 1)
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Read(path, "dev", fakeCrypter{}); !errors.Is(err, plan.ErrTampered) {
		t.Errorf("an edited plan: %v, want ErrTampered", err)
	}
}
