package tfserve_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/provider/tfserve"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Rule is a nested object type: a nested attribute in protocol 6, a
// block in protocol 5.
type Rule struct {
	Port     int    `plinth:"port"`
	Protocol string `plinth:"protocol" default:"tcp"`
}

type wallArgs struct {
	Name     string `plinth:"name,replaceOnChanges" doc:"The wall's name."`
	Rules    []Rule `plinth:"rules,optional"`
	Password string `plinth:"password,optional,secret"`
	MaxPorts int    `plinth:"maxPorts" default:"3"`
}

type wallState struct {
	wallArgs
	Serial string `plinth:"serial"`
}

type wall struct{ panics bool }

func (w wall) Check(_ context.Context, op provider.CheckOp[wallArgs]) (provider.CheckResult[wallArgs], error) {
	var fs []provider.CheckFailure
	for i, r := range op.News.Rules {
		if r.Port > 65535 {
			fs = append(fs, provider.CheckFailure{Property: "rules[" + itoa(i) + "].port", Reason: "must be at most 65535"})
		}
	}
	return provider.CheckResult[wallArgs]{Inputs: op.News, Failures: fs}, nil
}

func (w wall) Create(_ context.Context, op provider.CreateOp[wallArgs]) (provider.CreateResult[wallState], error) {
	if w.panics {
		panic("brick missing")
	}
	return provider.CreateResult[wallState]{ID: "wall-" + op.Inputs.Name, Outputs: wallState{wallArgs: op.Inputs, Serial: "s1"}}, nil
}

func (w wall) Update(_ context.Context, op provider.UpdateOp[wallArgs, wallState]) (provider.UpdateResult[wallState], error) {
	return provider.UpdateResult[wallState]{Outputs: wallState{wallArgs: op.News, Serial: op.OldOutputs.Serial}}, nil
}

func itoa(i int) string { return string(rune('0' + i)) }

func newWalls(t *testing.T, panics bool) provider.Provider {
	t.Helper()
	p, err := provider.New(provider.Info{Name: "walls", Version: "1.0.0"},
		provider.WithResource[wallArgs, wallState]("walls:index:Wall", wall{panics: panics}, "A wall."))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func server6(t *testing.T, panics bool) *tfserve.Server6 {
	t.Helper()
	s, err := tfserve.NewServer6(newWalls(t, panics))
	if err != nil {
		t.Fatal(err)
	}
	if resp, _ := s.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{}); len(resp.Diagnostics) > 0 {
		t.Fatalf("configure: %v", resp.Diagnostics[0])
	}
	return s
}

func wallType(t *testing.T, s *tfserve.Server6) tftypes.Object {
	t.Helper()
	resp, _ := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	return resp.ResourceSchemas["walls_wall"].ValueType().(tftypes.Object)
}

func dv(t *testing.T, ty tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	d, err := tfprotov6.NewDynamicValue(ty, v)
	if err != nil {
		t.Fatal(err)
	}
	return &d
}

// wallValue is a wall's configuration: name and one rule's port.
func wallValue(ty tftypes.Object, name string, port int) tftypes.Value {
	rule := ty.AttributeTypes["rules"].(tftypes.List).ElementType.(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for k, at := range ty.AttributeTypes {
		vals[k] = tftypes.NewValue(at, nil)
	}
	vals["name"] = tftypes.NewValue(tftypes.String, name)
	vals["rules"] = tftypes.NewValue(ty.AttributeTypes["rules"], []tftypes.Value{tftypes.NewValue(rule, map[string]tftypes.Value{
		"port": tftypes.NewValue(tftypes.Number, port), "protocol": tftypes.NewValue(tftypes.String, nil)})})
	return tftypes.NewValue(ty, vals)
}

func TestSchemaMapping(t *testing.T) {
	s6 := server6(t, false)
	resp6, _ := s6.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	got := map[string]string{}
	for _, a := range resp6.ResourceSchemas["walls_wall"].Block.Attributes {
		got[a.Name] = flags(a.Required, a.Optional, a.Computed, a.Sensitive, a.NestedType != nil)
	}
	want := map[string]string{"id": "computed", "name": "required", "rules": "optional nested",
		"password": "optional sensitive", "max_ports": "optional computed", "serial": "computed"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("protocol 6 attributes (-want +got):\n%s", diff)
	}

	s5, err := tfserve.NewServer5(newWalls(t, false))
	if err != nil {
		t.Fatal(err)
	}
	resp5, _ := s5.GetProviderSchema(context.Background(), &tfprotov5.GetProviderSchemaRequest{})
	b := resp5.ResourceSchemas["walls_wall"].Block
	if len(b.BlockTypes) != 1 || b.BlockTypes[0].TypeName != "rules" || b.BlockTypes[0].Nesting != tfprotov5.SchemaNestedBlockNestingModeList {
		t.Errorf("protocol 5 should write rules as a list block: %v", b.BlockTypes)
	}
}

func flags(req, opt, comp, sens, nested bool) string {
	var out []string
	for _, f := range []struct {
		on   bool
		name string
	}{{req, "required"}, {opt, "optional"}, {comp, "computed"}, {sens, "sensitive"}, {nested, "nested"}} {
		if f.on {
			out = append(out, f.name)
		}
	}
	return strings.Join(out, " ")
}

// A check failure deep in a nested list is a diagnostic on the list
// element (in protocol 6 rules is a nested attribute, and terraform finds
// no deeper source location inside one; TestDiagnosticPathsTerraformCanPlace
// covers protocol 5's blocks); the detail names the full path.
func TestCheckFailureHasAttributePath(t *testing.T) {
	s := server6(t, false)
	ty := wallType(t, s)
	resp, _ := s.ValidateResourceConfig(context.Background(), &tfprotov6.ValidateResourceConfigRequest{
		TypeName: "walls_wall", Config: dv(t, ty, wallValue(ty, "w", 70000))})
	if len(resp.Diagnostics) != 1 {
		t.Fatalf("diagnostics: %v", resp.Diagnostics)
	}
	d := resp.Diagnostics[0]
	want := tftypes.NewAttributePath().WithAttributeName("rules").WithElementKeyInt(0)
	if !d.Attribute.Equal(want) || !strings.Contains(d.Detail, "rules[0].port: must be at most 65535") {
		t.Errorf("diagnostic %q at %v, want one at %v", d.Detail, d.Attribute, want)
	}
}

// Plan fills in defaults, leaves outputs unknown and marks a change to a
// replaceOnChanges property as requiring replacement.
func TestPlan(t *testing.T) {
	s := server6(t, false)
	ty := wallType(t, s)
	ctx := context.Background()
	cfg := wallValue(ty, "w", 80)
	plan, _ := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "walls_wall",
		PriorState: dv(t, ty, tftypes.NewValue(ty, nil)), ProposedNewState: dv(t, ty, cfg), Config: dv(t, ty, cfg)})
	if len(plan.Diagnostics) > 0 {
		t.Fatalf("plan: %v", plan.Diagnostics[0])
	}
	planned := attrs(t, ty, plan.PlannedState)
	if !planned["max_ports"].Equal(tftypes.NewValue(tftypes.Number, 3)) || planned["serial"].IsKnown() || planned["id"].IsKnown() {
		t.Errorf("planned %v: want max_ports 3 from the default, serial and id unknown", planned)
	}
	applied, _ := s.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: "walls_wall",
		PriorState: dv(t, ty, tftypes.NewValue(ty, nil)), PlannedState: plan.PlannedState, Config: dv(t, ty, cfg)})
	if len(applied.Diagnostics) > 0 {
		t.Fatalf("apply: %v", applied.Diagnostics[0])
	}
	state, _ := applied.NewState.Unmarshal(ty)
	renamed := wallValue(ty, "v", 80)
	plan2, _ := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "walls_wall",
		PriorState: applied.NewState, ProposedNewState: dv(t, ty, renamed), Config: dv(t, ty, renamed), PriorPrivate: applied.Private})
	want := []*tftypes.AttributePath{tftypes.NewAttributePath().WithAttributeName("name")}
	if len(plan2.RequiresReplace) != 1 || !plan2.RequiresReplace[0].Equal(want[0]) {
		t.Errorf("requires_replace = %v, want [name]; state was %v", plan2.RequiresReplace, state)
	}
}

func attrs(t *testing.T, ty tftypes.Type, d *tfprotov6.DynamicValue) map[string]tftypes.Value {
	t.Helper()
	v, err := d.Unmarshal(ty)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]tftypes.Value
	if err := v.As(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A panic in Create is a diagnostic naming the method and the type; the
// server keeps serving.
func TestPanicBecomesDiagnostic(t *testing.T) {
	s := server6(t, true)
	ty := wallType(t, s)
	cfg := wallValue(ty, "w", 80)
	resp, err := s.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{TypeName: "walls_wall",
		PriorState: dv(t, ty, tftypes.NewValue(ty, nil)), PlannedState: dv(t, ty, cfg), Config: dv(t, ty, cfg)})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Diagnostics) != 1 {
		t.Fatalf("diagnostics: %v", resp.Diagnostics)
	}
	d := resp.Diagnostics[0]
	for _, want := range []string{"panicked", "Create", "walls_wall", "brick missing", "bug in the provider"} {
		if !strings.Contains(d.Summary+" "+d.Detail, want) {
			t.Errorf("the diagnostic %q / %q does not say %q", d.Summary, d.Detail, want)
		}
	}
	if _, err := s.GetMetadata(context.Background(), &tfprotov6.GetMetadataRequest{}); err != nil {
		t.Errorf("the server stopped answering after a panic: %v", err)
	}
}

func TestProtocolFrom(t *testing.T) {
	cases := map[string]struct {
		args    []string
		env     string
		want    int
		wantErr bool
	}{
		"default":       {want: 6},
		"flag":          {args: []string{"-protocol=5"}, want: 5},
		"env":           {env: "5", want: 5},
		"flag over env": {args: []string{"-protocol=6"}, env: "5", want: 6},
		"bad env":       {env: "five", wantErr: true},
		"unserved":      {args: []string{"-protocol=4"}, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := tfserve.ProtocolFrom(tc.args, tc.env, &strings.Builder{})
			if (err != nil) != tc.wantErr || (!tc.wantErr && got != tc.want) {
				t.Errorf("ProtocolFrom(%v, %q) = %d, %v; want %d (error %v)", tc.args, tc.env, got, err, tc.want, tc.wantErr)
			}
		})
	}
}

// TestComponentsAreNotTerraformResources: Terraform has no component
// resources, so a provider's components are left out of its schema.
func TestComponentsAreNotTerraformResources(t *testing.T) {
	type none struct{}
	build := func(ctx context.Context, c provider.ComponentContext, in resource.Object) (resource.Object, error) {
		return nil, nil
	}
	p, err := provider.New(provider.Info{Name: "kit"},
		provider.WithComponent[none, none]("kit:index:Set", provider.ComponentFunc(build), "A set."))
	if err != nil {
		t.Fatal(err)
	}
	s, err := tfserve.NewServer6(p)
	if err != nil {
		t.Fatal(err)
	}
	resp, _ := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if len(resp.ResourceSchemas) != 0 {
		t.Errorf("the Terraform schema lists a component: %v", resp.ResourceSchemas)
	}
}
