package engine_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestLookup: the engine's Monitor reads back a resource by URN, as the
// state records it: one recorded by an earlier operation, and one
// registered earlier in this operation; a URN it does not record is not
// found.
func TestLookup(t *testing.T) {
	h := newHarness(t)
	h.mustUp(prog{{name: "old", inputs: map[string]any{"x": 1}}})
	type lookup interface {
		Lookup(resource.URN) (engine.RecordedResource, bool)
	}
	var got []engine.RecordedResource
	var missing bool
	p := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		l, ok := mon.(lookup)
		if !ok {
			t.Fatalf("the engine's Monitor %T has no Lookup", mon)
		}
		if _, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Thing", Name: "old", Custom: true, Inputs: resource.Object{"x": resource.NewNumber(1)}}); err != nil {
			return err
		}
		if _, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Thing", Name: "new", Custom: true}); err != nil {
			return err
		}
		for _, name := range []string{"old", "new"} {
			r, _ := l.Lookup(mon.URN("pkg:index:Thing", name, ""))
			got = append(got, r)
		}
		_, found := l.Lookup(mon.URN("pkg:index:Thing", "nothing", ""))
		missing = !found
		return nil
	})
	h.mustUp(p)
	var want []engine.RecordedResource
	for _, name := range []string{"old", "new"} {
		urn := resource.NewURN("dev", "proj", "", "pkg:index:Thing", name)
		for _, r := range h.snap.Resources {
			if r.URN == urn {
				want = append(want, engine.RecordedResource{URN: r.URN, ID: r.ID, Custom: true, Outputs: r.Outputs})
			}
		}
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b resource.Object) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("Lookup (-want +got):\n%s", diff)
	}
	if !missing {
		t.Error("Lookup found a URN the state does not record")
	}
}
