package engine_test

import (
	"context"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestIDDerivedFromASecretIsSecret: when a provider makes the ID from a
// secret input, the record says so, the outputs that repeat the ID hold it
// as a secret, events carry the flag, and the program gets a secret ID.
func TestIDDerivedFromASecretIsSecret(t *testing.T) {
	for name, tc := range map[string]struct {
		name   resource.Value
		secret bool
	}{
		"secret name":            {resource.MakeSecret(resource.NewString("hunter2")), true},
		"secret inside a list":   {resource.NewArray(resource.MakeSecret(resource.NewString("hunter2"))), true},
		"plain name":             {resource.NewString("hunter2"), false},
		"unrelated secret input": {resource.NewString("visible"), false},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.fake.CreateF = func(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
				id := "db-hunter2-1"
				outs := resource.Object{"id": resource.NewString(id)}
				return provider.CreateResponse{ID: id, Outputs: outs}, nil
			}
			var got engine.Registered
			p := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
				var err error
				got, err = engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Thing", Name: "db", Custom: true,
					Inputs: resource.Object{"name": tc.name, "other": resource.MakeSecret(resource.NewString("zzz"))}})
				return err
			})
			h.mustUp(p)
			r := h.get("db")
			if r.SecretID != tc.secret || got.ID.IsSecret() != tc.secret || r.Outputs["id"].IsSecret() != tc.secret {
				t.Errorf("state SecretID %v, program ID %v, outputs.id %v: want secret=%v", r.SecretID, got.ID, r.Outputs["id"], tc.secret)
			}
			for _, e := range h.events {
				if e.Kind == engine.EventStepDone && e.URN.Name() == "db" && e.New.SecretID != tc.secret {
					t.Errorf("the step's event has SecretID %v, want %v", e.New.SecretID, tc.secret)
				}
			}
			if res := h.mustUp(p); res.HasChanges() {
				t.Errorf("the next up changes %v", res.Counts)
			}
			if h.get("db").SecretID != tc.secret {
				t.Errorf("the flag did not survive an unchanged up")
			}
		})
	}
}
