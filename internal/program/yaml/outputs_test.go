package yaml

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// failingSource's provider fails to create any resource named "bad".
type failingSource struct{}

func (failingSource) NewProvider(context.Context, engine.ProviderRequest) (provider.Provider, error) {
	return &provider.Fake{CreateF: func(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		if req.URN.Name() == "bad" && !req.Preview {
			return provider.CreateResponse{}, errors.New("quota exceeded")
		}
		return provider.CreateResponse{ID: req.URN.Name() + "-id", Outputs: req.Inputs}, nil
	}}, nil
}

// TestOutputsSavedAfterAFailedStep: the outputs that depend only on
// resources that succeeded are saved when another resource fails.
func TestOutputsSavedAfterAFailedStep(t *testing.T) {
	p := mustParse(t, `
name: outs
resources:
  good:
    type: fake:index:Thing
    properties: { v: fine }
  bad:
    type: fake:index:Thing
    # After good, so that good has always succeeded when bad fails: a
    # failure stops steps that have not started yet.
    properties: { v: "broken ${good.v}" }
outputs:
  fromGood: ${good.v}
  fromBad: ${bad.v}
  constant: 42
`)
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j := state.NewMemoryJournal(nil, state.VerifyEach(t))
	_, err = engine.Update(context.Background(), ev, &state.Snapshot{}, engine.Options{Stack: "dev", Project: "outs", Providers: failingSource{}, Journal: j})
	if err == nil {
		t.Fatal("want the create of bad to fail")
	}
	want := resource.Object{"fromGood": str("fine"), "constant": resource.NewNumber(42)}
	if diff := cmp.Diff(want, j.Snapshot().Outputs, valueCmp); diff != "" {
		t.Errorf("saved outputs (-want +got):\n%s", diff)
	}
}
