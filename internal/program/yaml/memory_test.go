package yaml

import (
	"context"
	"runtime"
	"testing"
	"weak"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// releaseMonitor resolves "a" at once, keeping only a weak pointer to the
// asset in its inputs, and on the registration of "b" (which depends on
// "a") collects garbage and records whether that asset is gone.
type releaseMonitor struct {
	*fakeMonitor
	asset    weak.Pointer[resource.Asset]
	released bool
}

func (m *releaseMonitor) Register(reg engine.Registration, done func(engine.Registered, error)) {
	if reg.Name == "a" {
		m.asset = weak.Make(reg.Inputs["text"].Asset())
	} else {
		for range 100 {
			runtime.GC()
			if m.released = m.asset.Value() == nil; m.released {
				break
			}
		}
	}
	urn := m.URN(reg.Type, reg.Name, reg.Parent)
	done(engine.Registered{URN: urn, ID: resource.NewString(reg.Name + "-id"), Custom: true, Outputs: resource.Object{}}, nil)
}

// TestRegisteredInputsAreReleased: the evaluator keeps a custom resource's
// inputs only until the engine has taken them (a component's are kept:
// they are its outputs), so a program of many resources does not hold
// every resource's inputs to its end.
func TestRegisteredInputsAreReleased(t *testing.T) {
	p := mustParse(t, `
name: mem
resources:
  a:
    type: pkg:index:Thing
    properties: { text: { fn::stringAsset: only the registration holds this } }
  b:
    type: pkg:index:Thing
    properties: { dep: "${a.id}" }
`)
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		t.Fatalf("program: %v", err)
	}
	mon := &releaseMonitor{fakeMonitor: &fakeMonitor{}}
	if err := ev.Run(context.Background(), mon); err != nil {
		t.Fatalf("run: %v", err)
	}
	if !mon.released {
		t.Error("the inputs of resource a are still reachable after its registration finished; the evaluator should keep them only for components (nodeState.inputs)")
	}
}
