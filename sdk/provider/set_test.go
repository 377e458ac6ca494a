package provider_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// rulesArgs has a set of objects whose elements have a default.
type rulesArgs struct {
	Rules []Listener `plinth:"rules,optional,set"`
}

type rulesToy struct{}

func (rulesToy) Create(_ context.Context, op provider.CreateOp[rulesArgs]) (provider.CreateResult[rulesArgs], error) {
	return provider.CreateResult[rulesArgs]{ID: "r", Outputs: op.Inputs}, nil
}

// TestSetsOfObjects: a set of structs checks to its elements with their
// defaults, in a fixed order, so the same elements in another order (or
// with a default spelled out, or recorded in another order) are no
// change; an element given twice is
// refused at its index; a nested rule fails at its path; and the schema
// marks the property a set.
func TestSetsOfObjects(t *testing.T) {
	p, err := provider.New(provider.Info{Name: "val", Version: "1.0.0"},
		provider.WithResource[rulesArgs, rulesArgs]("val:index:Rules", rulesToy{}, "Rules."))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ctx := context.Background()
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: resource.Object{}}); err != nil {
		t.Fatal(err)
	}
	urn := resource.NewURN("dev", "proj", "", "val:index:Rules", "r")
	check := func(rules ...any) provider.CheckResponse {
		t.Helper()
		resp, err := p.Check(ctx, provider.CheckRequest{URN: urn, News: obj(map[string]any{"rules": rules})})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	rule := func(port int, proto string) map[string]any {
		if proto == "" {
			return map[string]any{"port": port}
		}
		return map[string]any{"port": port, "protocol": proto}
	}
	first := check(rule(443, ""), rule(80, "udp"), rule(80, ""))
	want := obj(map[string]any{"rules": []any{rule(80, "tcp"), rule(80, "udp"), rule(443, "tcp")}})
	if len(first.Failures) > 0 || !first.Inputs["rules"].Equal(want["rules"]) {
		t.Fatalf("checked rules = %v, %v; want %v", first.Inputs["rules"], first.Failures, want["rules"])
	}
	second := check(rule(80, "tcp"), rule(443, ""), rule(80, "udp"))
	d, err := p.Diff(ctx, provider.DiffRequest{URN: urn, ID: "r", OldInputs: first.Inputs, OldOutputs: first.Inputs, News: second.Inputs})
	if err != nil || d.Changes != provider.DiffNone {
		t.Errorf("Diff of the same set in another order = %+v, %v; want no change", d, err)
	}
	// Terraform records a set in an order of its own: the recorded state
	// in another order than Check's is the same set too.
	reversed := obj(map[string]any{"rules": []any{rule(443, "tcp"), rule(80, "udp"), rule(80, "tcp")}})
	d, err = p.Diff(ctx, provider.DiffRequest{URN: urn, ID: "r", OldInputs: reversed, OldOutputs: reversed, News: second.Inputs})
	if err != nil || d.Changes != provider.DiffNone {
		t.Errorf("Diff against the set recorded in another order = %+v, %v; want no change", d, err)
	}

	failures := map[string]struct {
		rules []any
		want  []provider.CheckFailure
	}{
		"twice": {rules: []any{rule(80, "tcp"), rule(443, ""), rule(80, "tcp")}, want: []provider.CheckFailure{
			{Property: "rules[2]", Reason: `{"port": 80, "protocol": "tcp"} is also element 0; a set holds each value once`}}},
		"nested rule": {rules: []any{rule(0, "")}, want: []provider.CheckFailure{
			{Property: "rules[0].port", Reason: "must be at least 1, got 0"}}},
	}
	for name, tc := range failures {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, check(tc.rules...).Failures); diff != "" {
				t.Errorf("failures (-want +got):\n%s", diff)
			}
		})
	}

	s, err := p.GetSchema(ctx, provider.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if prop := s.Schema.Resources["val:index:Rules"].Inputs["rules"]; !prop.Set || prop.Type.Elem == nil || prop.Type.Elem.Kind != provider.TypeObject {
		t.Errorf("the schema's rules = %+v, want a set of objects", prop)
	}
}
