package tfplugin

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Provider configuration: checked against the schema and by the provider
// (tls's proxy block), the engine's version key ignored, and unknown values
// accepted during a preview.
func TestRealProviderConfig(t *testing.T) {
	ctx := context.Background()
	p, err := Start(ctx, Config{Path: realBinary(t, "tls"), Dir: t.TempDir()})
	mustOK(t, "Start", err)
	t.Cleanup(func() { p.Close() })
	tests := map[string]struct {
		inputs resource.Object
		want   []provider.CheckFailure
	}{
		"valid, with the engine's version": {inputs: obj(map[string]any{"proxy": map[string]any{"url": "http://proxy:3128"}, "version": "4.3.0"})},
		"unknown during preview":           {inputs: resource.Object{"proxy": resource.NewObject(resource.Object{"url": resource.Unknown()})}},
		"provider validator": {
			inputs: obj(map[string]any{"proxy": map[string]any{"url": "not a url"}}),
			want:   []provider.CheckFailure{{Property: "proxy[0].url", Reason: `Invalid URL: URL "not%20a%20url" contains no host`}},
		},
		"unknown property": {
			inputs: obj(map[string]any{"prox": true}),
			want:   []provider.CheckFailure{{Property: "prox", Reason: `unsupported property "prox"; the schema has ["proxy"]`}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			resp, err := p.CheckConfig(ctx, provider.CheckRequest{News: tc.inputs})
			mustOK(t, "CheckConfig", err)
			if diff := cmp.Diff(tc.want, resp.Failures); diff != "" {
				t.Errorf("failures (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := p.Create(ctx, provider.CreateRequest{URN: urn("tls_private_key", "k"), Inputs: obj(map[string]any{"algorithm": "ED25519"})}); err == nil {
		t.Errorf("Create before Configure succeeded")
	}
	unknown := resource.Object{"proxy": resource.NewObject(resource.Object{"url": resource.Unknown()})}
	_, err = p.Configure(ctx, provider.ConfigureRequest{Inputs: unknown, Preview: true})
	mustOK(t, "Configure with unknowns", err)
	d, err := p.DiffConfig(ctx, provider.DiffRequest{OldInputs: obj(map[string]any{"version": "4.2.0"}), News: obj(map[string]any{"version": "4.3.0"})})
	mustOK(t, "DiffConfig", err)
	if d.Changes != provider.DiffNone {
		t.Errorf("a new plugin version alone changed the configuration: %+v", d)
	}
}

// One provider process serves many resources at once.
func TestRealConcurrentCreates(t *testing.T) {
	p := startReal(t, "random", "", nil)
	const n = 32
	ids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			resp, err := p.Create(context.Background(), provider.CreateRequest{
				URN: urn("random_id", fmt.Sprintf("id%d", i)), Inputs: obj(map[string]any{"byte_length": 8}),
			})
			ids[i], errs[i] = resp.ID, err
		}(i)
	}
	wg.Wait()
	seen := map[string]bool{}
	for i := range ids {
		if errs[i] != nil {
			t.Fatalf("Create %d: %v", i, errs[i])
		}
		if ids[i] == "" || seen[ids[i]] {
			t.Errorf("Create %d: ID %q empty or repeated", i, ids[i])
		}
		seen[ids[i]] = true
	}
}
