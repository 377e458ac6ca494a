package main

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider/pulumirpc"
	"github.com/plinth-iac/plinth/internal/registry"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/providers/plinth"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The engine drives the plugin as it would any Pulumi-protocol provider:
// found by internal/plugin on PLINTH_PLUGIN_PATH (no built-ins given), its
// version asked of the binary, started through the registry's pulumirpc
// launcher.

func pluginSource(tb testing.TB) *registry.Source {
	env := plugin.Env{Home: tb.TempDir(), Getenv: func(k string) string {
		if k == "PLINTH_PLUGIN_PATH" {
			return filepath.Dir(pluginPath)
		}
		return ""
	}}
	return registry.NewSource(env, nil, registry.Pulumi(pulumirpc.Config{Log: func(pulumirpc.LogLine) {}}), nil)
}

func pets(n int) engine.Program {
	return engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		errs := make(chan error, n)
		for i := range n {
			mon.Register(engine.Registration{
				Type: plinth.PetType, Name: fmt.Sprintf("pet%d", i), Custom: true,
				Inputs: resource.Object{"length": resource.NewNumber(2)}, Version: ">= 0.1",
			}, func(_ engine.Registered, err error) { errs <- err })
		}
		for range n {
			if err := <-errs; err != nil {
				return err
			}
		}
		return nil
	})
}

func up(tb testing.TB, src *registry.Source, base *state.Snapshot, n int) (*engine.Result, *state.Snapshot) {
	tb.Helper()
	j := state.NewMemoryJournal(base)
	res, err := engine.Update(context.Background(), pets(n), base, engine.Options{
		Stack: "dev", Project: "proj", Providers: src, Journal: j,
		DefaultProviderConfig: func(string) resource.Object { return resource.Object{"root": resource.NewString(tb.TempDir())} },
	})
	if err != nil {
		tb.Fatal(err)
	}
	return res, j.Snapshot()
}

func TestEngineThroughPlugin(t *testing.T) {
	src := pluginSource(t)
	res, snap := up(t, src, nil, 20)
	if res.Counts[engine.OpCreate] != 20 {
		t.Fatalf("first update: %v, want 20 creates", res.Counts)
	}
	res, _ = up(t, src, snap, 20)
	if res.HasChanges() || res.Counts[engine.OpSame] != 20 {
		t.Errorf("second update: %v, want 20 unchanged", res.Counts)
	}
	res, _ = up(t, src, snap, 15)
	if res.Counts[engine.OpDelete] != 5 {
		t.Errorf("third update: %v, want 5 deletes", res.Counts)
	}
}

// BenchmarkEngineThroughPlugin2000 is an update creating 2,000 resources
// through the out-of-process plugin, then a no-change update of them.
func BenchmarkEngineThroughPlugin2000(b *testing.B) {
	src := pluginSource(b)
	for b.Loop() {
		_, snap := up(b, src, nil, 2000)
		if res, _ := up(b, src, snap, 2000); res.HasChanges() {
			b.Fatalf("no-change update changed %v", res.Counts)
		}
	}
}
