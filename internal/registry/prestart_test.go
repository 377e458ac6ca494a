package registry

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider"
)

// TestSourcePrestart: a provider prestarted from a binary is the one
// the first request that picks that binary gets, without a second
// launch; a later request launches its own; Release closes only what no
// request took.
func TestSourcePrestart(t *testing.T) {
	tr := newTree(t, everyLayout...)
	var mu sync.Mutex
	var launched, closed []string
	names := map[provider.Provider]string{}
	s := NewSource(tr.env, nil, nil, LauncherFunc(func(ctx context.Context, p plugin.Plugin) (provider.Provider, error) {
		mu.Lock()
		defer mu.Unlock()
		name := p.Version + " by NewProvider"
		if ctx.Value(probedKey{}) == nil {
			name = p.Version + " prestarted"
		}
		launched = append(launched, name)
		prov := &provider.Fake{CloseF: func() error {
			mu.Lock()
			defer mu.Unlock()
			closed = append(closed, name)
			return nil
		}}
		names[prov] = name
		return prov, nil
	}))
	ctx := context.Background()
	find := func(version string) plugin.Plugin {
		p, err := s.Finder.Find(ctx, plugin.Request{Name: "random", Version: version, Protocol: plugin.ProtocolTerraform})
		mustOK(t, "Find", err)
		return p
	}
	s.Prestart(find("3.6.2"))
	s.Prestart(find("3.6.2")) // the same binary: started once
	s.Prestart(find("3.5.0"))
	req := engine.ProviderRequest{Package: "random", Source: "hashicorp/random"}
	var got []string
	for i := 0; i < 2; i++ {
		prov, err := s.NewProvider(ctx, req)
		mustOK(t, "NewProvider", err)
		mu.Lock()
		got = append(got, names[prov])
		mu.Unlock()
	}
	s.Release()
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"3.6.2 prestarted", "3.6.2 by NewProvider"}, got); diff != "" {
		t.Errorf("the requests got (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"3.5.0 prestarted"}, closed); diff != "" {
		t.Errorf("Release closed (-want +got):\n%s", diff)
	}
	if len(launched) != 3 {
		t.Errorf("launched %v, want two prestarts and one launch by NewProvider", launched)
	}
}

func mustOK(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}
