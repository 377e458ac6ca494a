package engine_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func withProvider(region string, things ...string) prog {
	p := prog{{name: "p", typ: "pulumi:providers:pkg", inputs: map[string]any{"region": region}}}
	for _, n := range things {
		p = append(p, spec{name: n, provider: "p"})
	}
	return p
}

func TestProviderReplacementReplacesItsResources(t *testing.T) {
	h := newHarness(t)
	h.fake.DiffConfigF = func(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
		if !req.OldInputs["region"].Equal(req.News["region"]) {
			return provider.DiffResponse{Changes: provider.DiffSome, ReplaceKeys: []string{"region"}}, nil
		}
		return provider.DiffResponse{Changes: provider.DiffNone}, nil
	}
	h.mustUp(withProvider("east", "a", "b"))
	oldRef := h.get("a").Provider
	res := h.mustUp(withProvider("west", "a", "b"))
	if res.Counts[engine.OpReplace] != 3 {
		t.Errorf("counts %v, want the provider and both resources replaced", res.Counts)
	}
	if h.get("a").Provider == oldRef {
		t.Errorf("a still refers to the old provider %s", oldRef)
	}
	if ids := h.world.ids(); len(ids) != 2 || ids[0] == "a-1" || ids[1] == "b-2" {
		t.Errorf("world %v: want only the two replacements", ids)
	}
	for _, r := range h.snap.Resources {
		if r.Delete {
			t.Errorf("%s is still pending deletion", r.URN)
		}
	}
}

func TestProviderConfiguredOncePerConfiguration(t *testing.T) {
	h := newHarness(t)
	var configures atomic.Int32
	var closes, cancels atomic.Int32
	h.fake.ConfigureF = func(context.Context, provider.ConfigureRequest) (provider.ConfigureResponse, error) {
		configures.Add(1)
		return provider.ConfigureResponse{}, nil
	}
	h.fake.CloseF = func() error { closes.Add(1); return nil }
	h.fake.SignalCancellationF = func(context.Context) error { cancels.Add(1); return nil }
	var many prog
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		many = append(many, spec{name: n})
	}
	h.mustUp(many)
	if configures.Load() != 1 || h.src.instances["pkg"] != 1 {
		t.Errorf("five resources on the default provider: %d configures, %d instances; want 1 and 1", configures.Load(), h.src.instances["pkg"])
	}
	if closes.Load() != 1 || cancels.Load() != 1 {
		t.Errorf("at the end: %d SignalCancellation, %d Close; want 1 each", cancels.Load(), closes.Load())
	}
}

func TestProviderConfigFailure(t *testing.T) {
	h := newHarness(t)
	h.fake.CheckConfigF = func(context.Context, provider.CheckRequest) (provider.CheckResponse, error) {
		return provider.CheckResponse{Failures: []provider.CheckFailure{{Property: "region", Reason: "unknown region"}}}, nil
	}
	_, err := h.up(withProvider("mars", "a"))
	if err == nil || !strings.Contains(err.Error(), "region: unknown region") {
		t.Fatalf("got %v, want the config failure named", err)
	}
	diffStrings(t, "world", nil, h.world.ids())
}

func TestComponentResources(t *testing.T) {
	h := newHarness(t)
	p := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		comp, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "my:index:Box", Name: "box", Inputs: resource.Object{"size": resource.NewNumber(2)}})
		if err != nil {
			return err
		}
		child, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Thing", Name: "inner", Custom: true, Parent: comp.URN})
		if err != nil {
			return err
		}
		return mon.RegisterOutputs(comp.URN, resource.Object{"child": child.ID})
	})
	h.mustUp(p)
	inner := h.get("inner")
	if want := "urn:pulumi:dev::proj::my:index:Box$pkg:index:Thing::inner"; string(inner.URN) != want {
		t.Errorf("child URN %s, want %s", inner.URN, want)
	}
	box := h.get("box")
	if box.Custom || box.ID != "" || box.Provider != "" {
		t.Errorf("component recorded as %+v: want no ID and no provider", box)
	}
	if got := box.Outputs["child"].Str(); got != inner.ID {
		t.Errorf("component outputs %v, want child=%s", box.Outputs, inner.ID)
	}
	h.mustUp(prog{})
	diffStrings(t, "state after removing the component", nil, h.names())
	diffStrings(t, "world", nil, h.world.ids())
}

// TestComponentInputsChangeCountsUpdate: a recorded component whose
// inputs changed is counted as updated, as Pulumi counts it (it diffs a
// component's old and new inputs); one whose inputs are the same is the
// same. Before, plinth counted both as the same, so a remote component
// whose inputs changed (e2e/pulumicorpus yaml-remote) was "unchanged".
func TestComponentInputsChangeCountsUpdate(t *testing.T) {
	box := func(size int) engine.Program {
		return engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
			_, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "my:index:Box", Name: "box", Inputs: resource.Object{"size": resource.NewNumber(float64(size))}})
			return err
		})
	}
	tests := map[string]struct {
		second int
		want   map[engine.StepOp]int
	}{
		"inputs changed": {second: 3, want: map[engine.StepOp]int{engine.OpUpdate: 1}},
		"inputs same":    {second: 2, want: map[engine.StepOp]int{engine.OpSame: 1}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.mustUp(box(2))
			got := map[engine.StepOp]int{}
			for op, n := range h.mustUp(box(tt.second)).Counts {
				if n != 0 {
					got[op] = n
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("counts of the second up (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPreviewUnknownsFlowAndNothingChanges(t *testing.T) {
	h := newHarness(t)
	var previews atomic.Int32
	create := h.fake.CreateF
	h.fake.CreateF = func(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		if req.Preview {
			previews.Add(1)
		}
		return create(ctx, req)
	}
	res, err := h.preview(chain(1))
	if err != nil {
		t.Fatal(err)
	}
	if previews.Load() != 3 || res.Counts[engine.OpCreate] != 3 {
		t.Errorf("preview: %d Create(preview) calls, counts %v; want 3 and 3 creates", previews.Load(), res.Counts)
	}
	sawB := false
	for _, e := range h.events {
		if e.Kind == engine.EventStepDone && e.URN.Name() == "b" {
			sawB = true
			if !e.New.Inputs["y"].IsUnknown() {
				t.Errorf("b's input y = %v in preview, want unknown (a is not created yet)", e.New.Inputs["y"])
			}
		}
	}
	if !sawB {
		t.Errorf("the preview reported no step for b")
	}
	diffStrings(t, "state after preview", nil, h.names())
	diffStrings(t, "world after preview", nil, h.world.ids())
}

func TestPreviewAfterUpShowsNoChanges(t *testing.T) {
	h := newHarness(t)
	h.mustUp(chain(1))
	res, err := h.preview(chain(1))
	if err != nil {
		t.Fatal(err)
	}
	if res.HasChanges() {
		t.Errorf("no-change preview: counts %v", res.Counts)
	}
	res, err = h.preview(chain(2))
	if err != nil || res.Counts[engine.OpUpdate] != 1 {
		t.Errorf("preview of a change: counts %v, err %v; want one update", res.Counts, err)
	}
}

// TestDefaultProviderNames checks how default providers are named: per
// version for a Pulumi program, which may use several versions of a
// package at once; "default" whatever the version with
// OneDefaultProvider, as a Terraform configuration needs (its modules'
// constraints select one version, and its state names no version).
func TestDefaultProviderNames(t *testing.T) {
	tests := map[string]struct {
		one  bool
		want []string
	}{
		"per version":          {want: []string{"default_1_0_0 <- a", "default____1_0 <- b"}},
		"one default provider": {one: true, want: []string{"default <- a", "default <- b"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.opts = func(o *engine.Options) { o.OneDefaultProvider = tc.one }
			version := func(v string) func(*engine.Registration) {
				return func(r *engine.Registration) { r.Version = v }
			}
			h.mustUp(prog{{name: "a", opt: version("1.0.0")}, {name: "b", opt: version(">= 1.0")}})
			var got []string
			for _, n := range []string{"a", "b"} {
				urn, _, err := state.ParseProviderRef(h.get(n).Provider)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, urn.Name()+" <- "+n)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("default providers (-want +got):\n%s", diff)
			}
		})
	}
}
