package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestEphemeralResourceConfiguresProvider: a program opens an ephemeral
// resource, configures a provider with its value (EphemeralInputs), and
// the engine renews it when asked and closes it when told; the value
// reaches Configure but never the state, the events or a config diff.
func TestEphemeralResourceConfiguresProvider(t *testing.T) {
	const token = "eph-token-4711"
	h := newHarness(t)
	var mu sync.Mutex
	var calls []string
	var configured resource.Object
	h.fake.OpenEphemeralF = func(_ context.Context, req provider.OpenEphemeralRequest) (provider.OpenEphemeralResponse, error) {
		mu.Lock()
		calls = append(calls, "open "+req.Token)
		mu.Unlock()
		return provider.OpenEphemeralResponse{Result: resource.Object{"token": resource.NewString(token)}, Private: []byte("h1"), RenewAt: time.Now()}, nil
	}
	h.fake.RenewEphemeralF = func(_ context.Context, req provider.RenewEphemeralRequest) (provider.RenewEphemeralResponse, error) {
		mu.Lock()
		calls = append(calls, "renew "+string(req.Private))
		mu.Unlock()
		return provider.RenewEphemeralResponse{Private: []byte("h2")}, nil
	}
	h.fake.CloseEphemeralF = func(_ context.Context, req provider.CloseEphemeralRequest) error {
		mu.Lock()
		calls = append(calls, "close "+string(req.Private))
		mu.Unlock()
		return nil
	}
	h.fake.ConfigureF = func(_ context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
		mu.Lock()
		configured = req.Inputs
		mu.Unlock()
		return provider.ConfigureResponse{}, nil
	}
	p := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		return ephemeralProgram(ctx, mon)
	})
	for run := range 2 {
		calls = nil
		res := h.mustUp(p)
		if run == 1 && (res.Counts[engine.OpUpdate] != 0 || res.Counts[engine.OpReplace] != 0) {
			t.Errorf("second run counts %v: the ephemeral input must not make a provider diff", res.Counts)
		}
		if configured["token"].Str() != token {
			t.Errorf("run %d: provider configured with %v, want the ephemeral token", run, configured)
		}
		diffStrings(t, "ephemeral calls", []string{"open pkg:index:Token", "renew h1", "close h2"}, calls)
		b, err := json.Marshal(h.snap)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), token) {
			t.Errorf("run %d: the state holds the ephemeral value: %s", run, b)
		}
		for _, e := range h.events {
			if e.New != nil && strings.Contains(e.New.Inputs["token"].Str()+e.New.Outputs["token"].Str(), token) {
				t.Errorf("run %d: event for %s shows the ephemeral value", run, e.URN)
			}
		}
	}
}

// ephemeralProgram opens pkg:index:Token, configures provider p with it,
// registers a thing on p, then closes the token.
func ephemeralProgram(ctx context.Context, mon engine.Monitor) error {
	val, closeIt, err := mon.(engine.EphemeralOpener).OpenEphemeral(ctx, engine.InvokeRequest{Token: "pkg:index:Token"})
	if err != nil {
		return err
	}
	time.Sleep(50 * time.Millisecond) // renewal is due at once
	prov, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pulumi:providers:pkg", Name: "p", Custom: true,
		Inputs: resource.Object{"region": resource.NewString("east"), "token": val["token"]}, EphemeralInputs: []string{"token"}})
	if err != nil {
		return err
	}
	if _, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Thing", Name: "a", Custom: true, Provider: prov.ProviderRef}); err != nil {
		return err
	}
	return closeIt(ctx)
}

// TestEphemeralClosedAfterDeletes: an ephemeral resource the program
// leaves open is closed when the operation ends, after the deletes of
// resources the program no longer registers (their provider may be
// configured from it), as terraform closes it after its last user.
func TestEphemeralClosedAfterDeletes(t *testing.T) {
	h := newHarness(t)
	var mu sync.Mutex
	var calls []string
	record := func(s string) { mu.Lock(); calls = append(calls, s); mu.Unlock() }
	h.fake.OpenEphemeralF = func(_ context.Context, req provider.OpenEphemeralRequest) (provider.OpenEphemeralResponse, error) {
		record("open")
		return provider.OpenEphemeralResponse{Result: resource.Object{"token": resource.NewString("t")}}, nil
	}
	h.fake.CloseEphemeralF = func(context.Context, provider.CloseEphemeralRequest) error { record("close"); return nil }
	del := h.fake.DeleteF
	h.fake.DeleteF = func(ctx context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
		record("delete " + req.URN.Name())
		return del(ctx, req)
	}
	program := func(things ...string) engine.Program {
		return engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
			val, _, err := mon.(engine.EphemeralOpener).OpenEphemeral(ctx, engine.InvokeRequest{Token: "pkg:index:Token"})
			if err != nil {
				return err
			}
			prov, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pulumi:providers:pkg", Name: "p", Custom: true,
				Inputs: resource.Object{"token": val["token"]}, EphemeralInputs: []string{"token"}})
			if err != nil {
				return err
			}
			for _, n := range things {
				if _, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Thing", Name: n, Custom: true, Provider: prov.ProviderRef}); err != nil {
					return err
				}
			}
			return nil
		})
	}
	h.mustUp(program("a", "b"))
	diffStrings(t, "first run", []string{"open", "close"}, calls)
	calls = nil
	h.mustUp(program("a"))
	diffStrings(t, "second run", []string{"open", "delete b", "close"}, calls)
}
