package yaml

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// fakeSource hands out one default fake provider per package and records
// the configuration each provider resource was given.
type fakeSource struct {
	mu      sync.Mutex
	configs map[string]resource.Object
}

func (s *fakeSource) NewProvider(_ context.Context, req engine.ProviderRequest) (provider.Provider, error) {
	return &provider.Fake{ConfigureF: func(_ context.Context, c provider.ConfigureRequest) (provider.ConfigureResponse, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.configs[req.Package+"@"+req.Version] = c.Inputs
		return provider.ConfigureResponse{}, nil
	}}, nil
}

// TestWithEngine runs a program through the real engine with fake
// providers: a preview, an update, and a second update that changes
// nothing.
func TestWithEngine(t *testing.T) {
	p := mustParse(t, `
name: e2e
config:
  prefix: { default: demo }
  fake:flavour: { default: vanilla }
providers:
  other:
    version: 1.0.0
    config: { region: "${prefix}-west" }
variables:
  greeting: hello-${prefix}
resources:
  pet:
    type: fake:index:Pet
    properties: { length: 2, prefix: "${prefix}" }
  note:
    type: fake:index:File
    properties: { content: "${greeting} from ${pet.id}" }
    options: { dependsOn: ["${pet}"] }
  thing:
    type: other_thing
    properties: { of: "${note.content}" }
outputs:
  content: ${note.content}
  thing: ${thing.of}
`)
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := &fakeSource{configs: map[string]resource.Object{}}
	snap := &state.Snapshot{}
	opts := func(j engine.Journal) engine.Options {
		return engine.Options{Stack: "dev", Project: p.Name(), Providers: src, Journal: j,
			DefaultProviderConfig: p.DefaultProviderConfig(nil)}
	}
	ctx := context.Background()

	res, err := engine.Preview(ctx, ev, snap, opts(nil))
	if err != nil {
		t.Fatalf("preview: %v", err)
	}
	if !res.HasChanges() {
		t.Errorf("the preview of a new stack shows no changes: %v", res.Counts)
	}

	for round := range 2 {
		j := state.NewMemoryJournal(snap, state.VerifyEach(t))
		res, err = engine.Update(ctx, ev, snap, opts(j))
		if err != nil {
			t.Fatalf("update %d: %v", round, err)
		}
		snap = j.Snapshot()
		want := resource.Object{"content": str("hello-demo from " + idOf(t, snap, "pet")), "thing": str("hello-demo from " + idOf(t, snap, "pet"))}
		if diff := cmp.Diff(want, res.Outputs, valueCmp); diff != "" {
			t.Errorf("update %d outputs (-want +got):\n%s", round, diff)
		}
		if round == 1 && res.HasChanges() {
			t.Errorf("a second update of an unchanged program changed something: %v", res.Counts)
		}
	}
	wantConfigs := map[string]resource.Object{
		"fake@":       {"flavour": str("vanilla")},
		"other@1.0.0": {"region": str("demo-west")},
	}
	if diff := cmp.Diff(wantConfigs, src.configs, valueCmp); diff != "" {
		t.Errorf("provider configurations (-want +got):\n%s", diff)
	}
}

func idOf(t *testing.T, snap *state.Snapshot, name string) string {
	t.Helper()
	for _, r := range snap.Resources {
		if r.URN.Name() == name {
			return r.ID
		}
	}
	t.Fatalf("no resource %q in the state", name)
	return ""
}
