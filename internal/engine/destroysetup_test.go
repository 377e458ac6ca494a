package engine_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestDestroySetupConfiguresProviders: a provider configured from an
// ephemeral resource's value is configured the same way for a destroy
// when Options.DestroySetup runs the program again, as terraform opens
// the ephemeral resources provider configurations need during destroy:
// the deletes see the ephemeral token, the ephemeral resource is closed
// after them, and nothing the setup registers is recorded. Without the
// setup the provider gets only its recorded configuration, no token.
func TestDestroySetupConfiguresProviders(t *testing.T) {
	for name, setup := range map[string]bool{"with setup": true, "without setup": false} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			var mu sync.Mutex
			var calls []string
			record := func(s string) { mu.Lock(); calls = append(calls, s); mu.Unlock() }
			h.fake.OpenEphemeralF = func(context.Context, provider.OpenEphemeralRequest) (provider.OpenEphemeralResponse, error) {
				record("open")
				return provider.OpenEphemeralResponse{Result: resource.Object{"token": resource.NewString("t")}}, nil
			}
			h.fake.CloseEphemeralF = func(context.Context, provider.CloseEphemeralRequest) error { record("close"); return nil }
			h.fake.ConfigureF = func(_ context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
				record("configure token=" + req.Inputs["token"].Str())
				return provider.ConfigureResponse{}, nil
			}
			del := h.fake.DeleteF
			h.fake.DeleteF = func(ctx context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
				record("delete " + req.URN.Name())
				return del(ctx, req)
			}
			prog := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
				val, _, err := mon.(engine.EphemeralOpener).OpenEphemeral(ctx, engine.InvokeRequest{Token: "pkg:index:Token"})
				if err != nil {
					return err
				}
				prov, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pulumi:providers:pkg", Name: "p", Custom: true,
					Inputs: resource.Object{"token": val["token"]}, EphemeralInputs: []string{"token"}})
				if err != nil {
					return err
				}
				_, err = engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Thing", Name: "a", Custom: true, Provider: prov.ProviderRef,
					Inputs: resource.Object{"x": resource.NewString("1")}})
				return err
			})
			h.mustUp(prog)
			if setup {
				h.opts = func(o *engine.Options) { o.DestroySetup = prog }
			}
			calls = nil
			if _, err := h.run(func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
				return engine.Destroy(ctx, base, o)
			}); err != nil {
				t.Fatalf("destroy: %v", err)
			}
			want := []string{"configure token=", "delete a"}
			if setup {
				// the default provider serves the ephemeral resource
				want = []string{"configure token=", "open", "configure token=t", "delete a", "close"}
			}
			diffStrings(t, "destroy's calls", want, calls)
			if len(h.snap.Resources) != 0 {
				t.Errorf("the state still holds %d resources after the destroy", len(h.snap.Resources))
			}
		})
	}
}

// TestDestroySetupSkippedWhenNothingToDelete: a destroy (and its preview)
// of a stack that records no resource, or only providers, runs no
// DestroySetup, as terraform's destroy of an empty state evaluates
// nothing: a configuration whose evaluation fails (a first up that
// failed before creating anything) can still be destroyed. Once a
// resource is recorded the setup runs, and its failure stops the destroy.
func TestDestroySetupSkippedWhenNothingToDelete(t *testing.T) {
	thing := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		_, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Thing", Name: "a", Custom: true,
			Inputs: resource.Object{"x": resource.NewString("1")}})
		return err
	})
	providerOnly := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		_, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pulumi:providers:pkg", Name: "p", Custom: true})
		return err
	})
	tests := map[string]struct {
		up      engine.Program // nil: nothing applied
		preview bool
		ran     bool
	}{
		"empty state":          {},
		"empty state, preview": {preview: true},
		"only a provider":      {up: providerOnly},
		"a resource":           {up: thing, ran: true},
		"a resource, preview":  {up: thing, preview: true, ran: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			if tc.up != nil {
				h.mustUp(tc.up)
			}
			ran := false
			h.opts = func(o *engine.Options) {
				o.DestroySetup = engine.ProgramFunc(func(context.Context, engine.Monitor) error {
					ran = true
					return errors.New("output \"bad\" refers to sensitive values")
				})
			}
			_, err := h.run(func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
				if tc.preview {
					return engine.PreviewDestroy(ctx, base, o)
				}
				return engine.Destroy(ctx, base, o)
			})
			if ran != tc.ran {
				t.Errorf("the setup ran: %v, want %v", ran, tc.ran)
			}
			if got := err != nil; got != tc.ran {
				t.Errorf("destroy error %v; want one only when the setup ran and failed", err)
			}
		})
	}
}
