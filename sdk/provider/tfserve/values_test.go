package tfserve_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/provider/tfserve"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Spec is a nested object with a default on one field.
type Spec struct {
	Size  int    `plinth:"size"`
	Color string `plinth:"color" default:"blue"`
}

// boxArgs has what Terraform's rules on planned values catch: a map of
// any values (keepers), a nested default and an input the provider
// normalises (mode "600" is checked as "0600").
type boxArgs struct {
	Keepers map[string]resource.Value `plinth:"keepers,optional,replaceOnChanges"`
	Spec    *Spec                     `plinth:"spec,optional"`
	Mode    string                    `plinth:"mode" default:"0644"`
}

type boxState struct {
	boxArgs
	Serial string `plinth:"serial"`
}

type box struct{}

func (box) Check(_ context.Context, op provider.CheckOp[boxArgs]) (provider.CheckResult[boxArgs], error) {
	in := op.News
	if m, err := strconv.ParseUint(in.Mode, 8, 32); err == nil {
		in.Mode = fmt.Sprintf("%04o", m)
	}
	return provider.CheckResult[boxArgs]{Inputs: in}, nil
}

func (box) Create(_ context.Context, op provider.CreateOp[boxArgs]) (provider.CreateResult[boxState], error) {
	return provider.CreateResult[boxState]{ID: "box", Outputs: boxState{boxArgs: op.Inputs, Serial: "s1"}}, nil
}

func (box) Update(_ context.Context, op provider.UpdateOp[boxArgs, boxState]) (provider.UpdateResult[boxState], error) {
	return provider.UpdateResult[boxState]{Outputs: boxState{boxArgs: op.News, Serial: op.OldOutputs.Serial}}, nil
}

// Read reports the mode as the provider writes it, as plinth_fs_file
// reads a file's mode.
func (box) Read(_ context.Context, op provider.ReadOp[boxArgs, boxState]) (provider.ReadResult[boxArgs, boxState], error) {
	st := op.State
	if m, err := strconv.ParseUint(st.Mode, 8, 32); err == nil {
		st.Mode = fmt.Sprintf("%04o", m)
	}
	return provider.ReadResult[boxArgs, boxState]{ID: op.ID, Inputs: op.Inputs, Outputs: st}, nil
}

// boxServer serves the box provider over protocol 5 or 6 through the
// tfprotov6 shapes the tests use.
type boxServer struct {
	plan  func(prior, proposed, config tftypes.Value, private []byte) (tftypes.Value, []byte, error)
	apply func(prior, planned, config tftypes.Value, private []byte) (tftypes.Value, []byte, error)
	read  func(current tftypes.Value, private []byte) (tftypes.Value, []byte, error)
	ty    tftypes.Object
}

func newBoxServer(t *testing.T, protocol int) *boxServer {
	t.Helper()
	p, err := provider.New(provider.Info{Name: "boxes", Version: "1.0.0"},
		provider.WithResource[boxArgs, boxState]("boxes:index:Box", box{}, "A box."))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if protocol == 5 {
		return newBoxServer5(t, ctx, p)
	}
	s, err := tfserve.NewServer6(p)
	if err != nil {
		t.Fatal(err)
	}
	if resp, _ := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{}); len(resp.Diagnostics) > 0 {
		t.Fatalf("configure: %v", resp.Diagnostics[0])
	}
	sch, _ := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	ty := sch.ResourceSchemas["boxes_box"].ValueType().(tftypes.Object)
	enc := func(v tftypes.Value) *tfprotov6.DynamicValue { return dv(t, ty, v) }
	b := &boxServer{ty: ty}
	b.plan = func(prior, proposed, config tftypes.Value, private []byte) (tftypes.Value, []byte, error) {
		resp, _ := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "boxes_box",
			PriorState: enc(prior), ProposedNewState: enc(proposed), Config: enc(config), PriorPrivate: private})
		if len(resp.Diagnostics) > 0 {
			return tftypes.Value{}, nil, fmt.Errorf("%s: %s", resp.Diagnostics[0].Summary, resp.Diagnostics[0].Detail)
		}
		v, err := resp.PlannedState.Unmarshal(ty)
		return v, resp.PlannedPrivate, err
	}
	b.apply = func(prior, planned, config tftypes.Value, private []byte) (tftypes.Value, []byte, error) {
		resp, _ := s.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: "boxes_box",
			PriorState: enc(prior), PlannedState: enc(planned), Config: enc(config), PlannedPrivate: private})
		if len(resp.Diagnostics) > 0 {
			return tftypes.Value{}, nil, fmt.Errorf("%s: %s", resp.Diagnostics[0].Summary, resp.Diagnostics[0].Detail)
		}
		v, err := resp.NewState.Unmarshal(ty)
		return v, resp.Private, err
	}
	b.read = func(current tftypes.Value, private []byte) (tftypes.Value, []byte, error) {
		resp, _ := s.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: "boxes_box", CurrentState: enc(current), Private: private})
		if len(resp.Diagnostics) > 0 {
			return tftypes.Value{}, nil, fmt.Errorf("%s: %s", resp.Diagnostics[0].Summary, resp.Diagnostics[0].Detail)
		}
		v, err := resp.NewState.Unmarshal(ty)
		return v, resp.Private, err
	}
	return b
}

func newBoxServer5(t *testing.T, ctx context.Context, p provider.Provider) *boxServer {
	t.Helper()
	s, err := tfserve.NewServer5(p)
	if err != nil {
		t.Fatal(err)
	}
	if resp, _ := s.ConfigureProvider(ctx, &tfprotov5.ConfigureProviderRequest{}); len(resp.Diagnostics) > 0 {
		t.Fatalf("configure: %v", resp.Diagnostics[0])
	}
	sch, _ := s.GetProviderSchema(ctx, &tfprotov5.GetProviderSchemaRequest{})
	ty := sch.ResourceSchemas["boxes_box"].ValueType().(tftypes.Object)
	enc := func(v tftypes.Value) *tfprotov5.DynamicValue {
		d, err := tfprotov5.NewDynamicValue(ty, v)
		if err != nil {
			t.Fatal(err)
		}
		return &d
	}
	b := &boxServer{ty: ty}
	b.plan = func(prior, proposed, config tftypes.Value, private []byte) (tftypes.Value, []byte, error) {
		resp, _ := s.PlanResourceChange(ctx, &tfprotov5.PlanResourceChangeRequest{TypeName: "boxes_box",
			PriorState: enc(prior), ProposedNewState: enc(proposed), Config: enc(config), PriorPrivate: private})
		if len(resp.Diagnostics) > 0 {
			return tftypes.Value{}, nil, fmt.Errorf("%s: %s", resp.Diagnostics[0].Summary, resp.Diagnostics[0].Detail)
		}
		v, err := resp.PlannedState.Unmarshal(ty)
		return v, resp.PlannedPrivate, err
	}
	b.apply = func(prior, planned, config tftypes.Value, private []byte) (tftypes.Value, []byte, error) {
		resp, _ := s.ApplyResourceChange(ctx, &tfprotov5.ApplyResourceChangeRequest{TypeName: "boxes_box",
			PriorState: enc(prior), PlannedState: enc(planned), Config: enc(config), PlannedPrivate: private})
		if len(resp.Diagnostics) > 0 {
			return tftypes.Value{}, nil, fmt.Errorf("%s: %s", resp.Diagnostics[0].Summary, resp.Diagnostics[0].Detail)
		}
		v, err := resp.NewState.Unmarshal(ty)
		return v, resp.Private, err
	}
	b.read = func(current tftypes.Value, private []byte) (tftypes.Value, []byte, error) {
		resp, _ := s.ReadResource(ctx, &tfprotov5.ReadResourceRequest{TypeName: "boxes_box", CurrentState: enc(current), Private: private})
		if len(resp.Diagnostics) > 0 {
			return tftypes.Value{}, nil, fmt.Errorf("%s: %s", resp.Diagnostics[0].Summary, resp.Diagnostics[0].Detail)
		}
		v, err := resp.NewState.Unmarshal(ty)
		return v, resp.Private, err
	}
	return b
}

// boxConfig is a box's configuration: attrs set, every other attribute
// null (spec is a block in protocol 5: a null single block).
func (b *boxServer) boxConfig(attrs map[string]tftypes.Value) tftypes.Value {
	vals := map[string]tftypes.Value{}
	for k, at := range b.ty.AttributeTypes {
		vals[k] = tftypes.NewValue(at, nil)
	}
	for k, v := range attrs {
		vals[k] = v
	}
	return tftypes.NewValue(b.ty, vals)
}

func (b *boxServer) attr(t *testing.T, v tftypes.Value, name string) tftypes.Value {
	t.Helper()
	var m map[string]tftypes.Value
	if err := v.As(&m); err != nil {
		t.Fatal(err)
	}
	return m[name]
}

// An unknown in a map of any values is planned as the configuration's
// unknown, with its type: Terraform refuses a plan whose value differs
// from the configuration's ("planned value cty.MapVal({"a":cty.DynamicVal})
// does not match config value cty.MapVal({"a":cty.UnknownVal(cty.String)})").
func TestPlanKeepsTheTypeOfUnknownsInDynamicMaps(t *testing.T) {
	for _, protocol := range []int{5, 6} {
		t.Run(fmt.Sprint("protocol ", protocol), func(t *testing.T) {
			b := newBoxServer(t, protocol)
			keepers := tftypes.NewValue(b.ty.AttributeTypes["keepers"], map[string]tftypes.Value{
				"a": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
				"b": tftypes.NewValue(tftypes.String, "two")})
			cfg := b.boxConfig(map[string]tftypes.Value{"keepers": keepers})
			planned, _, err := b.plan(tftypes.NewValue(b.ty, nil), cfg, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := b.attr(t, planned, "keepers")
			if !got.Equal(keepers) {
				t.Errorf("planned keepers %v, want the configuration's %v", got, keepers)
			}
			var elems map[string]tftypes.Value
			if err := got.As(&elems); err != nil {
				t.Fatal(err)
			}
			if ty := elems["a"].Type(); !ty.Is(tftypes.String) {
				t.Errorf("planned keepers.a has type %s, want the configuration's string", ty)
			}
		})
	}
}

// A default on a field of a nested object is planned and recorded, so the
// next plan from the same configuration changes nothing.
func TestNestedDefaultIsRecorded(t *testing.T) {
	for _, protocol := range []int{5, 6} {
		t.Run(fmt.Sprint("protocol ", protocol), func(t *testing.T) {
			b := newBoxServer(t, protocol)
			specT := b.ty.AttributeTypes["spec"].(tftypes.Object)
			spec := tftypes.NewValue(specT, map[string]tftypes.Value{
				"size": tftypes.NewValue(tftypes.Number, 3), "color": tftypes.NewValue(tftypes.String, nil)})
			cfg := b.boxConfig(map[string]tftypes.Value{"spec": spec})
			null := tftypes.NewValue(b.ty, nil)
			planned, priv, err := b.plan(null, cfg, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			state, priv, err := b.apply(null, planned, cfg, priv)
			if err != nil {
				t.Fatal(err)
			}
			want := tftypes.NewValue(tftypes.String, "blue")
			for what, v := range map[string]tftypes.Value{"planned": planned, "applied": state} {
				if got := b.attr(t, b.attr(t, v, "spec"), "color"); !got.Equal(want) {
					t.Errorf("%s spec.color = %v, want the default %v", what, got, want)
				}
			}
			refreshed, priv, err := b.read(state, priv)
			if err != nil {
				t.Fatal(err)
			}
			// Terraform proposes the prior value for a computed attribute
			// the configuration leaves null.
			again, _, err := b.plan(refreshed, refreshed, cfg, priv)
			if err != nil {
				t.Fatal(err)
			}
			if !again.Equal(refreshed) {
				t.Errorf("the second plan changes the state:\nplanned %v\nprior   %v", again, refreshed)
			}
		})
	}
}

// A refresh keeps the configuration's spelling of an input the provider
// normalises, so the next plan is empty: mode "600" stays "600" though
// Read reports "0600".
func TestRefreshKeepsTheConfiguredSpelling(t *testing.T) {
	for _, protocol := range []int{5, 6} {
		t.Run(fmt.Sprint("protocol ", protocol), func(t *testing.T) {
			b := newBoxServer(t, protocol)
			cfg := b.boxConfig(map[string]tftypes.Value{"mode": tftypes.NewValue(tftypes.String, "600")})
			null := tftypes.NewValue(b.ty, nil)
			planned, priv, err := b.plan(null, cfg, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			state, priv, err := b.apply(null, planned, cfg, priv)
			if err != nil {
				t.Fatal(err)
			}
			refreshed, _, err := b.read(state, priv)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := b.attr(t, refreshed, "mode"), tftypes.NewValue(tftypes.String, "600"); !got.Equal(want) {
				t.Errorf("refreshed mode = %v, want the configured %v", got, want)
			}
		})
	}
}

// A configuration that spells a recorded value differently ("644" where
// an import recorded "0644") plans no change: the provider finds none,
// and the prior value stands.
func TestPlanKeepsThePriorSpelling(t *testing.T) {
	for _, protocol := range []int{5, 6} {
		t.Run(fmt.Sprint("protocol ", protocol), func(t *testing.T) {
			b := newBoxServer(t, protocol)
			recorded := b.boxConfig(map[string]tftypes.Value{"mode": tftypes.NewValue(tftypes.String, "0644")})
			null := tftypes.NewValue(b.ty, nil)
			planned, priv, err := b.plan(null, recorded, recorded, nil)
			if err != nil {
				t.Fatal(err)
			}
			state, priv, err := b.apply(null, planned, recorded, priv)
			if err != nil {
				t.Fatal(err)
			}
			cfg := b.boxConfig(map[string]tftypes.Value{"mode": tftypes.NewValue(tftypes.String, "644")})
			var recordedAttrs map[string]tftypes.Value
			if err := state.As(&recordedAttrs); err != nil {
				t.Fatal(err)
			}
			proposed := map[string]tftypes.Value{} // As shares the state's map
			for k, v := range recordedAttrs {
				proposed[k] = v
			}
			proposed["mode"] = tftypes.NewValue(tftypes.String, "644")
			again, _, err := b.plan(state, tftypes.NewValue(b.ty, proposed), cfg, priv)
			if err != nil {
				t.Fatal(err)
			}
			if !again.Equal(state) {
				t.Errorf("the plan changes the state:\nplanned %v\nprior   %v", again, state)
			}
		})
	}
}
