package state_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/statetest"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestAdmittedTokensLoadBack is the property behind state.CheckIdentity:
// whatever type and name it admits, recorded through a session (one
// resource compacted into the snapshot, one left in the journal), loads
// back unchanged with the loader's integrity check; and what it refuses
// the session refuses to record.
func TestAdmittedTokensLoadBack(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		typ := rapid.OneOf(
			rapid.StringMatching(`[a-zA-Z0-9:$ /._-]{1,14}`),
			rapid.StringMatching(`[a-z][a-z0-9-]*(:[a-zA-Z0-9/_. -]+){1,3}`),
			rapid.String(),
		).Draw(t, "type")
		custom := rapid.Bool().Draw(t, "custom")
		name := rapid.String().Draw(t, "name")
		ctx := context.Background()
		b := statetest.NewMemoryBackend()
		r := tokenResource(typ, name, custom, "a")
		admitted := state.CheckIdentity(r.URN, typ, custom) == nil

		s, err := state.Open(ctx, b, "dev", state.OpenOptions{Command: "test", Verify: true})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: prov()})
		if err == nil {
			err = s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: r})
		}
		if !admitted {
			if err == nil {
				t.Fatalf("the session recorded %q (type %q), which CheckIdentity refuses", r.URN, typ)
			}
			s.Close(ctx)
			return
		}
		if err != nil {
			t.Fatalf("recording %q: %v", r.URN, err)
		}
		if err := s.Close(ctx); err != nil {
			t.Fatal(err)
		}
		s, err = state.Open(ctx, b, "dev", state.OpenOptions{Command: "test", Verify: true})
		if err != nil {
			t.Fatalf("opening the compacted stack: %v", err)
		}
		r2 := tokenResource(typ, name+"2", custom, "b")
		if err := s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: r2}); err != nil {
			t.Fatalf("recording %q: %v", r2.URN, err)
		}
		got, err := state.Load(ctx, b, "dev", state.OpenOptions{Verify: true})
		if err != nil {
			t.Fatalf("loading snapshot and journal: %v", err)
		}
		want := []string{identity(prov()), identity(r), identity(r2)}
		var have []string
		for _, g := range got.Resources {
			have = append(have, identity(g))
		}
		if diff := cmp.Diff(want, have); diff != "" {
			t.Fatalf("loaded (-recorded +loaded):\n%s", diff)
		}
		s.Close(ctx)
	})
}

func tokenResource(typ, name string, custom bool, id string) *state.Resource {
	r := &state.Resource{URN: resource.NewURN("dev", "proj", "", typ, name), Type: typ, Custom: custom}
	if custom {
		r.ID, r.Provider = id, state.ProviderRef(providerURN, "p-1")
	}
	return r
}

func identity(r *state.Resource) string {
	return fmt.Sprintf("%q type=%q custom=%t id=%s provider=%s", r.URN, r.Type, r.Custom, r.ID, r.Provider)
}
