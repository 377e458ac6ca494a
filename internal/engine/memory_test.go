package engine_test

import (
	"context"
	"runtime"
	"testing"
	"weak"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestFinishedRegistrationIsReleased: once a resource's step has run,
// the engine keeps nothing of the registration the program sent (its
// inputs are in the state, as the provider's Check returned them), so an
// operation over many resources does not hold every registration to its
// end. The provider's Check drops the "marker" input; the asset behind
// it must then become unreachable while the operation still runs.
func TestFinishedRegistrationIsReleased(t *testing.T) {
	fake := &provider.Fake{CheckF: func(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
		return provider.CheckResponse{Inputs: resource.Object{"name": req.News["name"]}}, nil
	}}
	src := &source{fakes: map[string]*provider.Fake{"pkg": fake}, instances: map[string]int{}}
	released := false
	p := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		marker, err := registerMarked(mon)
		if err != nil {
			return err
		}
		// The worker that ran the step may still be returning from it.
		for range 100 {
			runtime.GC()
			if marker.Value() == nil {
				released = true
				break
			}
			runtime.Gosched()
		}
		return nil
	})
	opts := engine.Options{Stack: "dev", Project: "mem", Providers: src, Journal: state.NewMemoryJournal(nil)}
	if _, err := engine.Update(context.Background(), p, nil, opts); err != nil {
		t.Fatal(err)
	}
	if !released {
		t.Error("the registration's inputs are still reachable after its step finished; the engine should keep only what it needs of a registration (see regState)")
	}
}

// registerMarked registers a resource whose inputs hold an asset only
// the registration refers to, waits for its step, and returns a weak
// pointer to the asset.
func registerMarked(mon engine.Monitor) (weak.Pointer[resource.Asset], error) {
	asset := &resource.Asset{Text: "only the registration holds this"}
	reg := engine.Registration{Type: "pkg:index:Thing", Name: "a", Custom: true,
		Inputs: resource.Object{"name": resource.NewString("a"), "marker": resource.NewAsset(asset)}}
	_, err := registerNow(mon, reg)
	return weak.Make(asset), err
}
