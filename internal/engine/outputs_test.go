package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// outputsProgram registers ok and bad, then sets stack outputs from them
// as the YAML evaluator does: an output whose resource failed is unknown.
func outputsProgram(version int) engine.Program {
	return engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		reg := func(name string) (engine.Registered, error) {
			return engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Thing", Name: name, Custom: true,
				Inputs: resource.Object{"v": resource.NewNumber(float64(version))}})
		}
		ok, okErr := reg("ok")
		bad, badErr := reg("bad")
		out := func(r engine.Registered, err error) resource.Value {
			if err != nil {
				return resource.Unknown()
			}
			return r.Outputs["v"]
		}
		mon.SetStackOutputs(resource.Object{"ok": out(ok, okErr), "bad": out(bad, badErr)})
		return errors.Join(okErr, badErr)
	})
}

// TestOutputsOfSuccessfulResourcesAreSavedAfterAFailure: after a failed
// step, the stack outputs that depend only on resources that succeeded are
// saved; one that depends on the failed resource keeps its recorded value.
func TestOutputsOfSuccessfulResourcesAreSavedAfterAFailure(t *testing.T) {
	h := newHarness(t)
	h.mustUp(outputsProgram(1))
	update := h.fake.UpdateF
	h.fake.UpdateF = func(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
		if req.URN.Name() == "bad" {
			return provider.UpdateResponse{}, errors.New("quota exceeded")
		}
		return update(ctx, req)
	}
	res, err := h.up(outputsProgram(2))
	if err == nil {
		t.Fatal("want the update of bad to fail")
	}
	want := resource.Object{"ok": resource.NewNumber(2), "bad": resource.NewNumber(1)}
	eq := cmp.Comparer(func(a, b resource.Value) bool { return a.Equal(b) })
	if diff := cmp.Diff(want, h.snap.Outputs, eq); diff != "" {
		t.Errorf("saved outputs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, res.Outputs, eq); diff != "" {
		t.Errorf("reported outputs (-want +got):\n%s", diff)
	}
}

// typedProgram sets one stack output, v, with the type typ (as the
// Terraform front end does, engine.OutputTyper), or unknown if unknown.
func typedProgram(v resource.Value, typ string) engine.Program {
	return engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		if typ != "" {
			mon.(engine.OutputTyper).SetStackOutputTypes(map[string]json.RawMessage{"v": json.RawMessage(typ)})
		}
		mon.SetStackOutputs(resource.Object{"v": v})
		return nil
	})
}

// TestOutputTypesAreRecorded: the types a program gives its outputs are
// recorded with them, also when only a type changes; an unknown output
// keeps its recorded value and type.
func TestOutputTypesAreRecorded(t *testing.T) {
	h := newHarness(t)
	pair := resource.NewArray(resource.NewString("a"), resource.NewString("b"))
	steps := []struct {
		v    resource.Value
		typ  string
		want string
	}{
		{pair, `["tuple",["string","string"]]`, `["tuple",["string","string"]]`},
		{pair, `["list","string"]`, `["list","string"]`},
		{resource.Unknown(), `"dynamic"`, `["list","string"]`},
	}
	for i, s := range steps {
		h.mustUp(typedProgram(s.v, s.typ))
		if got := string(h.snap.OutputTypes["v"]); got != s.want {
			t.Errorf("step %d: recorded type %s, want %s", i, got, s.want)
		}
		if !h.snap.Outputs["v"].Equal(pair) {
			t.Errorf("step %d: recorded value %v, want %v", i, h.snap.Outputs["v"], pair)
		}
	}
}

// inputTypedProgram registers one resource whose input v has the type
// typ (engine.Registration.InputTypes).
func inputTypedProgram(typ string) engine.Program {
	return engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		_, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Thing", Name: "t", Custom: true,
			Inputs:     resource.Object{"v": resource.NewArray(resource.NewString("a"))},
			InputTypes: map[string]json.RawMessage{"v": json.RawMessage(typ)}})
		return err
	})
}

// TestInputTypesAreRecorded: a registration's input types are recorded
// with the resource, also when only a type changes (no provider call).
func TestInputTypesAreRecorded(t *testing.T) {
	h := newHarness(t)
	for _, typ := range []string{`["tuple",["string"]]`, `["list","string"]`} {
		h.mustUp(inputTypedProgram(typ))
		var got string
		for _, r := range h.snap.Resources {
			if r.URN.Name() == "t" {
				got = string(r.InputTypes["v"])
			}
		}
		if got != typ {
			t.Errorf("recorded input type %s, want %s", got, typ)
		}
	}
}

// TestOutputsOfAFailedProgramAreNotSaved: a program that fails by
// itself, no step having failed, leaves the recorded outputs as they
// were, and a preview or update of it reports them, even if it set
// outputs before failing (as Pulumi's Go SDK does, registering the
// stack's outputs after the program's error).
func TestOutputsOfAFailedProgramAreNotSaved(t *testing.T) {
	h := newHarness(t)
	h.mustUp(typedProgram(resource.NewString("kept"), ""))
	failing := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		mon.SetStackOutputs(resource.Object{})
		return errors.New(`resource, variable, or config value "nope" not found`)
	})
	want := resource.Object{"v": resource.NewString("kept")}
	eq := cmp.Comparer(func(a, b resource.Value) bool { return a.Equal(b) })
	res, err := h.preview(failing)
	if err == nil {
		t.Fatal("want the program's error")
	}
	if diff := cmp.Diff(want, res.Outputs, eq); diff != "" {
		t.Errorf("outputs the preview reports (-want +got):\n%s", diff)
	}
	if res, err = h.up(failing); err == nil {
		t.Fatal("want the program's error")
	}
	if diff := cmp.Diff(want, h.snap.Outputs, eq); diff != "" {
		t.Errorf("saved outputs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, res.Outputs, eq); diff != "" {
		t.Errorf("outputs the update reports (-want +got):\n%s", diff)
	}
}
