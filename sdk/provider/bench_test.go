package provider_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func toyInputs(i int) resource.Object {
	return obj(map[string]any{
		"name": fmt.Sprintf("toy-%d", i), "size": i % 10, "password": "pw",
		"tags":   []any{map[string]any{"key": "team", "value": "core"}},
		"labels": map[string]any{"env": "dev", "tier": "web"},
	})
}

// Many goroutines use one provider at once (run with -race).
func TestConcurrentCalls(t *testing.T) {
	p := configured(t, nil)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			urn := basicURN(fmt.Sprint(i))
			checked, err := p.Check(ctx, provider.CheckRequest{URN: urn, News: toyInputs(i)})
			if err == nil {
				_, err = p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: checked.Inputs})
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// BenchmarkCheckCreateDiff is the SDK's cost per resource in an update that
// creates it and a later one that finds nothing changed.
func BenchmarkCheckCreateDiff(b *testing.B) {
	p := configured(b, nil)
	ctx := context.Background()
	news := toyInputs(1)
	urn := basicURN("b")
	b.ReportAllocs()
	for b.Loop() {
		checked, err := p.Check(ctx, provider.CheckRequest{URN: urn, News: news})
		if err != nil {
			b.Fatal(err)
		}
		created, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: checked.Inputs})
		if err != nil {
			b.Fatal(err)
		}
		d, err := p.Diff(ctx, provider.DiffRequest{URN: urn, ID: created.ID, OldInputs: checked.Inputs, OldOutputs: created.Outputs, News: checked.Inputs})
		if err != nil || d.Changes != provider.DiffNone {
			b.Fatalf("%v %v", d, err)
		}
	}
}
