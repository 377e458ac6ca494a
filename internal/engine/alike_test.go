package engine_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestAlikeRecordsShareInputs: the records of resources of one type
// with equal plain inputs share one inputs object; resources whose
// inputs differ, hold a secret, or are of another type do not.
func TestAlikeRecordsShareInputs(t *testing.T) {
	plain := func() resource.Object {
		return resource.Object{"name": resource.NewString("thing"), "n": resource.NewNumber(1),
			"tags": resource.NewArray(resource.NewString("a"))}
	}
	secret := func() resource.Object { return resource.Object{"s": resource.MakeSecret(resource.NewString("x"))} }
	regs := []engine.Registration{
		{Type: "pkg:index:Thing", Name: "a", Custom: true, Inputs: plain()},
		{Type: "pkg:index:Thing", Name: "b", Custom: true, Inputs: plain()},
		{Type: "pkg:index:Thing", Name: "c", Custom: true, Inputs: resource.Object{"name": resource.NewString("other")}},
		{Type: "pkg:index:Other", Name: "d", Custom: true, Inputs: plain()},
		{Type: "pkg:index:Thing", Name: "e", Custom: true, Inputs: secret()},
		{Type: "pkg:index:Thing", Name: "f", Custom: true, Inputs: secret()},
	}
	p := engine.ProgramFunc(func(_ context.Context, mon engine.Monitor) error {
		for _, reg := range regs {
			if _, err := registerNow(mon, reg); err != nil {
				return err
			}
		}
		return nil
	})
	j := state.NewMemoryJournal(nil)
	src := &source{fakes: map[string]*provider.Fake{"pkg": {}}, instances: map[string]int{}}
	opts := engine.Options{Stack: "dev", Project: "alike", Providers: src, Journal: j}
	if _, err := engine.Update(context.Background(), p, nil, opts); err != nil {
		t.Fatal(err)
	}
	inputs := map[string]resource.Object{}
	for _, r := range j.Snapshot().Resources {
		inputs[r.URN.Name()] = r.Inputs
	}
	same := func(a, b string) bool {
		return reflect.ValueOf(inputs[a]).Pointer() == reflect.ValueOf(inputs[b]).Pointer()
	}
	got := map[string]bool{"a=b": same("a", "b"), "a=c": same("a", "c"), "a=d": same("a", "d"), "e=f": same("e", "f")}
	want := map[string]bool{"a=b": true, "a=c": false, "a=d": false, "e=f": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records sharing an inputs object (-want +got):\n%s", diff)
	}
	for _, reg := range regs {
		if !inputs[reg.Name].Equal(reg.Inputs) {
			t.Errorf("%s: recorded inputs %v, want %v", reg.Name, inputs[reg.Name], reg.Inputs)
		}
	}
}
