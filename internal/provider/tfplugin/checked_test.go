package tfplugin

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// configWire keeps the configurations validated and planned through it.
type configWire struct {
	wire
	mu        sync.Mutex
	validated [][]byte
	planned   [][]byte
}

func (w *configWire) validateResourceConfig(ctx context.Context, typeName string, config dynamicValue) ([]diagnostic, error) {
	w.mu.Lock()
	w.validated = append(w.validated, config.msgpack)
	w.mu.Unlock()
	return w.wire.validateResourceConfig(ctx, typeName, config)
}

func (w *configWire) planChange(ctx context.Context, req planRequest) (planResponse, error) {
	w.mu.Lock()
	w.planned = append(w.planned, req.config.msgpack)
	w.mu.Unlock()
	return w.wire.planChange(ctx, req)
}

// TestCheckedConfigurationIsReused: a Create, Update or Diff given the
// inputs its resource's Check returned plans with the configuration
// Check built and encoded (the very bytes it validated), not a second
// one; given other inputs (the engine applied ignore_changes, or the
// inputs changed since), it plans with a configuration of its own
// inputs. Check's configuration is taken once.
func TestCheckedConfigurationIsReused(t *testing.T) {
	ctx := context.Background()
	p := startFake(t, modePlain)
	w := &configWire{wire: p.wire}
	p.wire = w
	check := func(name, value string) resource.Object {
		t.Helper()
		resp, err := p.Check(ctx, provider.CheckRequest{URN: urn("fake_thing", name), News: obj(map[string]any{"value": value})})
		if err != nil || len(resp.Failures) > 0 {
			t.Fatalf("Check of %s: %v %v", name, err, resp.Failures)
		}
		return resp.Inputs
	}
	planned := func() (cty.Value, bool) {
		t.Helper()
		w.mu.Lock()
		defer w.mu.Unlock()
		last, validated := w.planned[len(w.planned)-1], w.validated[len(w.validated)-1]
		v, err := decode(dynamicValue{msgpack: last}, thingType)
		if err != nil {
			t.Fatal(err)
		}
		return v.GetAttr("value"), len(last) > 0 && len(validated) > 0 && &last[0] == &validated[0]
	}
	type result struct {
		Value  string
		Reused bool
	}
	got := map[string]result{}
	record := func(name string) {
		v, reused := planned()
		got[name] = result{v.AsString(), reused}
	}

	inputs := check("a", "one")
	created, err := p.Create(ctx, provider.CreateRequest{URN: urn("fake_thing", "a"), Inputs: inputs})
	mustOK(t, "Create", err)
	record("create after its check")

	if _, err := p.Create(ctx, provider.CreateRequest{URN: urn("fake_thing", "a"), Inputs: inputs}); err != nil {
		t.Fatal(err)
	}
	record("a second create: taken once")

	check("b", "two")
	if _, err := p.Create(ctx, provider.CreateRequest{URN: urn("fake_thing", "b"), Inputs: obj(map[string]any{"value": "three"})}); err != nil {
		t.Fatal(err)
	}
	record("create with other inputs")

	inputs = check("a", "four")
	diff := provider.DiffRequest{URN: urn("fake_thing", "a"), ID: created.ID, OldInputs: inputs, OldOutputs: created.Outputs, News: inputs, Private: created.Private}
	if _, err := p.Diff(ctx, diff); err != nil {
		t.Fatal(err)
	}
	record("diff after its check")

	inputs = check("a", "five")
	diff.News, diff.IgnoreChanges = inputs, []resource.PropertyPath{{"value"}}
	if _, err := p.Diff(ctx, diff); err != nil {
		t.Fatal(err)
	}
	record("diff ignoring the checked change")

	inputs = check("a", "six")
	update := provider.UpdateRequest{URN: urn("fake_thing", "a"), ID: created.ID, OldInputs: created.Outputs, OldOutputs: created.Outputs, News: inputs, Private: created.Private}
	if _, err := p.Update(ctx, update); err != nil {
		t.Fatal(err)
	}
	record("update after its check")

	want := map[string]result{
		"create after its check":           {"one", true},
		"a second create: taken once":      {"one", false},
		"create with other inputs":         {"three", false},
		"diff after its check":             {"four", true},
		"diff ignoring the checked change": {"one", false},
		"update after its check":           {"six", true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("planned configurations (-want +got):\n%s", diff)
	}
}

// TestCheckedConfigurationsAreBounded: checks far ahead of their calls
// keep at most maxChecked configurations; a resource already kept is
// still replaced by its next Check.
func TestCheckedConfigurationsAreBounded(t *testing.T) {
	var c checkedConfigs
	inputs := resource.Object{"value": resource.NewString("v")}
	for i := range maxChecked + 10 {
		c.keep(urn("fake_thing", fmt.Sprint(i)), inputs, configuration{value: cty.StringVal("old")})
	}
	c.keep(urn("fake_thing", "0"), inputs, configuration{value: cty.StringVal("new")})
	if n := len(c.m); n != maxChecked {
		t.Errorf("%d configurations kept, want %d", n, maxChecked)
	}
	if got, ok := c.take(urn("fake_thing", "0"), inputs); !ok || !got.value.RawEquals(cty.StringVal("new")) {
		t.Errorf("take of a kept resource = %#v, %v; want its latest configuration", got.value, ok)
	}
	if _, ok := c.take(urn("fake_thing", fmt.Sprint(maxChecked+5)), inputs); ok {
		t.Error("a configuration past the bound was kept")
	}
}
