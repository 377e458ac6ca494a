package tfserve_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/provider/tfserve"
)

// A gate has a deprecated field inside a nested list and a write-only
// secret (issue 20 item 7).

type Hinge struct {
	Side   string `plinth:"side"`
	Legacy string `plinth:"legacy,optional" deprecated:"hinges no longer squeak"`
}

type gateArgs struct {
	Hinges []Hinge `plinth:"hinges,optional"`
	Code   string  `plinth:"code,optional,writeOnly"`
}

type gateState struct {
	gateArgs
}

type gate struct{}

func (gate) Create(_ context.Context, op provider.CreateOp[gateArgs]) (provider.CreateResult[gateState], error) {
	return provider.CreateResult[gateState]{ID: "g", Outputs: gateState{op.Inputs}}, nil
}

func gateServer(t *testing.T) (*tfserve.Server6, tftypes.Object) {
	t.Helper()
	p, err := provider.New(provider.Info{Name: "gates", Version: "1.0.0"},
		provider.WithResource[gateArgs, gateState]("gates:index:Gate", gate{}, "A gate."))
	if err != nil {
		t.Fatal(err)
	}
	s, err := tfserve.NewServer6(p)
	if err != nil {
		t.Fatal(err)
	}
	if resp, _ := s.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{}); len(resp.Diagnostics) > 0 {
		t.Fatalf("configure: %v", resp.Diagnostics[0])
	}
	schema, _ := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	for _, a := range schema.ResourceSchemas["gates_gate"].Block.Attributes {
		if a.Name == "code" && (!a.WriteOnly || a.Computed) {
			t.Errorf("code: WriteOnly %v, Computed %v; want a write-only attribute that is not computed", a.WriteOnly, a.Computed)
		}
	}
	return s, schema.ResourceSchemas["gates_gate"].ValueType().(tftypes.Object)
}

func gateValue(ty tftypes.Object, code string, legacy any) tftypes.Value {
	hinges := ty.AttributeTypes["hinges"].(tftypes.List)
	hinge := hinges.ElementType.(tftypes.Object)
	return tftypes.NewValue(ty, map[string]tftypes.Value{
		"id":   tftypes.NewValue(tftypes.String, nil),
		"code": tftypes.NewValue(tftypes.String, code),
		"hinges": tftypes.NewValue(hinges, []tftypes.Value{tftypes.NewValue(hinge, map[string]tftypes.Value{
			"side": tftypes.NewValue(tftypes.String, "left"), "legacy": tftypes.NewValue(tftypes.String, legacy)})}),
	})
}

func TestDeprecatedNestedAttributeWarnsAtItsPath(t *testing.T) {
	s, ty := gateServer(t)
	resp, _ := s.ValidateResourceConfig(context.Background(), &tfprotov6.ValidateResourceConfigRequest{
		TypeName: "gates_gate", Config: dv(t, ty, gateValue(ty, "1234", "yes"))})
	want := tftypes.NewAttributePath().WithAttributeName("hinges").WithElementKeyInt(0)
	if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Severity != tfprotov6.DiagnosticSeverityWarning ||
		!resp.Diagnostics[0].Attribute.Equal(want) {
		t.Fatalf("diagnostics %v; want one warning at %v", resp.Diagnostics, want)
	}
	if resp, _ := s.ValidateResourceConfig(context.Background(), &tfprotov6.ValidateResourceConfigRequest{
		TypeName: "gates_gate", Config: dv(t, ty, gateValue(ty, "1234", nil))}); len(resp.Diagnostics) != 0 {
		t.Errorf("diagnostics without the deprecated attribute: %v", resp.Diagnostics)
	}
}

// Terraform proposes the configuration's write-only values; planned and
// new states must hold null for them.
func TestWriteOnlyIsNeverPlannedNorStored(t *testing.T) {
	s, ty := gateServer(t)
	ctx := context.Background()
	cfg := gateValue(ty, "1234", nil)
	null := dv(t, ty, tftypes.NewValue(ty, nil))
	plan, _ := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "gates_gate",
		PriorState: null, ProposedNewState: dv(t, ty, cfg), Config: dv(t, ty, cfg)})
	if len(plan.Diagnostics) > 0 {
		t.Fatalf("plan: %v", plan.Diagnostics[0])
	}
	if code := attrs(t, ty, plan.PlannedState)["code"]; !code.IsNull() {
		t.Errorf("planned code = %v, want null", code)
	}
	applied, _ := s.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: "gates_gate",
		PriorState: null, PlannedState: plan.PlannedState, Config: dv(t, ty, cfg)})
	if len(applied.Diagnostics) > 0 {
		t.Fatalf("apply: %v", applied.Diagnostics[0])
	}
	if code := attrs(t, ty, applied.NewState)["code"]; !code.IsNull() {
		t.Errorf("new state code = %v, want null", code)
	}
	replan, _ := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "gates_gate",
		PriorState: applied.NewState, ProposedNewState: dv(t, ty, cfg), Config: dv(t, ty, cfg), PriorPrivate: applied.Private})
	if len(replan.Diagnostics) > 0 {
		t.Fatalf("replan: %v", replan.Diagnostics[0])
	}
	if code := attrs(t, ty, replan.PlannedState)["code"]; !code.IsNull() {
		t.Errorf("planned code with no change = %v, want null", code)
	}
}

// Terraform finds a diagnostic's source through nested blocks, not
// through nested attributes: protocol 5 (blocks) keeps the full path,
// protocol 6 (nested attributes) stops at the list element.
func TestDiagnosticPathsTerraformCanPlace(t *testing.T) {
	ctx := context.Background()
	full := tftypes.NewAttributePath().WithAttributeName("hinges").WithElementKeyInt(0).WithAttributeName("legacy")
	p, err := provider.New(provider.Info{Name: "gates", Version: "1.0.0"},
		provider.WithResource[gateArgs, gateState]("gates:index:Gate", gate{}, "A gate."))
	if err != nil {
		t.Fatal(err)
	}
	s5, err := tfserve.NewServer5(p)
	if err != nil {
		t.Fatal(err)
	}
	schema, _ := s5.GetProviderSchema(ctx, &tfprotov5.GetProviderSchemaRequest{})
	ty := schema.ResourceSchemas["gates_gate"].ValueType().(tftypes.Object)
	cfg, err := tfprotov5.NewDynamicValue(ty, gateValue(ty, "1", "yes"))
	if err != nil {
		t.Fatal(err)
	}
	resp, _ := s5.ValidateResourceTypeConfig(ctx, &tfprotov5.ValidateResourceTypeConfigRequest{TypeName: "gates_gate", Config: &cfg})
	if len(resp.Diagnostics) != 1 || !resp.Diagnostics[0].Attribute.Equal(full) {
		t.Fatalf("protocol 5 diagnostics %v; want one at %v", resp.Diagnostics, full)
	}
	if !strings.Contains(resp.Diagnostics[0].Detail, "legacy is deprecated") {
		t.Errorf("detail %q does not name the attribute", resp.Diagnostics[0].Detail)
	}
}

type openArgs struct {
	Gate  string `plinth:"gate"`
	Force bool   `plinth:"force,optional" deprecated:"gates open on their own now"`
}

type openResult struct {
	Open bool `plinth:"open"`
}

// A deprecated argument of a function warns when its data source sets it.
func TestDeprecatedDataSourceArgumentWarns(t *testing.T) {
	p, err := provider.New(provider.Info{Name: "gates", Version: "1.0.0"},
		provider.WithFunction("gates:index:open", func(context.Context, openArgs) (openResult, error) { return openResult{Open: true}, nil }, "Opens a gate."))
	if err != nil {
		t.Fatal(err)
	}
	s, err := tfserve.NewServer6(p)
	if err != nil {
		t.Fatal(err)
	}
	schema, _ := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	ty := schema.DataSourceSchemas["gates_open"].ValueType().(tftypes.Object)
	cfg := tftypes.NewValue(ty, map[string]tftypes.Value{"gate": tftypes.NewValue(tftypes.String, "g"),
		"force": tftypes.NewValue(tftypes.Bool, true), "open": tftypes.NewValue(tftypes.Bool, nil)})
	resp, _ := s.ValidateDataResourceConfig(context.Background(), &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "gates_open", Config: dv(t, ty, cfg)})
	want := tftypes.NewAttributePath().WithAttributeName("force")
	if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Severity != tfprotov6.DiagnosticSeverityWarning || !resp.Diagnostics[0].Attribute.Equal(want) {
		t.Errorf("diagnostics %v; want one warning at force", resp.Diagnostics)
	}
}

type regionConfig struct {
	Region string `plinth:"region"`
}

// Terraform calls functions without configuring the provider; one whose
// configuration has a required property still answers (issue 20).
func TestFunctionOfProviderWithRequiredConfig(t *testing.T) {
	p, err := provider.New(provider.Info{Name: "gates", Version: "1.0.0"}, provider.WithConfig[regionConfig](),
		provider.WithFunction("gates:index:open", func(context.Context, openArgs) (openResult, error) { return openResult{Open: true}, nil }, "Opens a gate."))
	if err != nil {
		t.Fatal(err)
	}
	s, err := tfserve.NewServer6(p)
	if err != nil {
		t.Fatal(err)
	}
	arg, err := tfprotov6.NewDynamicValue(tftypes.String, tftypes.NewValue(tftypes.String, "g"))
	if err != nil {
		t.Fatal(err)
	}
	null, err := tfprotov6.NewDynamicValue(tftypes.Bool, tftypes.NewValue(tftypes.Bool, nil))
	if err != nil {
		t.Fatal(err)
	}
	resp, _ := s.CallFunction(context.Background(), &tfprotov6.CallFunctionRequest{Name: "open", Arguments: []*tfprotov6.DynamicValue{&arg, &null}})
	if resp.Error != nil {
		t.Fatalf("CallFunction before ConfigureProvider: %s", resp.Error.Text)
	}
}
