// Command terraform-provider-shapes is a test provider for e2e/tflang: a
// Terraform provider (protocol 6, served with terraform-plugin-go) with
// one resource, shapes_thing, whose attributes and nested blocks have
// every shape a plan shows differently: sets (tags, which terraform
// always shows whole, and zones), a map, an object, a
// single nested attribute, a set of blocks, a list of blocks with a
// block nested in it, and a single block. It keeps what it is given and
// computes only its id. It lets terraform's and plinth's plans be
// compared on them (the providers the corpus uses have no sets). It is
// not a product.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func main() {
	if err := tf6server.Serve("registry.terraform.io/hashicorp/shapes", func() tfprotov6.ProviderServer { return server{} }); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

var (
	ruleType  = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"port": tftypes.Number, "proto": tftypes.String}}
	innerType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"n": tftypes.String}}
	diskType  = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"size": tftypes.Number, "inner": tftypes.List{ElementType: innerType}}}
	metaType  = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"owner": tftypes.String}}
	pairType  = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.String, "b": tftypes.Number}}
	nestType  = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"x": tftypes.String, "y": tftypes.List{ElementType: tftypes.String}}}
	// thingType is shapes_thing's object type.
	thingType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"id":     tftypes.String,
		"tags":   tftypes.Set{ElementType: tftypes.String},
		"zones":  tftypes.Set{ElementType: tftypes.String},
		"labels": tftypes.Map{ElementType: tftypes.String},
		"pair":   pairType,
		"nested": nestType,
		"rule":   tftypes.Set{ElementType: ruleType},
		"disk":   tftypes.List{ElementType: diskType},
		"meta":   metaType,
	}}
)

func optional(name string, t tftypes.Type) *tfprotov6.SchemaAttribute {
	return &tfprotov6.SchemaAttribute{Name: name, Type: t, Optional: true}
}

func thingSchema() *tfprotov6.Schema {
	return &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{
		Attributes: []*tfprotov6.SchemaAttribute{
			{Name: "id", Type: tftypes.String, Computed: true},
			optional("tags", tftypes.Set{ElementType: tftypes.String}),
			optional("zones", tftypes.Set{ElementType: tftypes.String}),
			optional("labels", tftypes.Map{ElementType: tftypes.String}),
			optional("pair", pairType),
			{Name: "nested", Optional: true, NestedType: &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingModeSingle,
				Attributes: []*tfprotov6.SchemaAttribute{optional("x", tftypes.String), optional("y", tftypes.List{ElementType: tftypes.String})}}},
		},
		BlockTypes: []*tfprotov6.SchemaNestedBlock{
			{TypeName: "rule", Nesting: tfprotov6.SchemaNestedBlockNestingModeSet, Block: &tfprotov6.SchemaBlock{
				Attributes: []*tfprotov6.SchemaAttribute{optional("port", tftypes.Number), optional("proto", tftypes.String)}}},
			{TypeName: "disk", Nesting: tfprotov6.SchemaNestedBlockNestingModeList, Block: &tfprotov6.SchemaBlock{
				Attributes: []*tfprotov6.SchemaAttribute{optional("size", tftypes.Number)},
				BlockTypes: []*tfprotov6.SchemaNestedBlock{{TypeName: "inner", Nesting: tfprotov6.SchemaNestedBlockNestingModeList,
					Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{optional("n", tftypes.String)}}}}}},
			{TypeName: "meta", Nesting: tfprotov6.SchemaNestedBlockNestingModeSingle, Block: &tfprotov6.SchemaBlock{
				Attributes: []*tfprotov6.SchemaAttribute{optional("owner", tftypes.String)}}},
		},
	}}
}

// server answers the calls a resource needs; the embedded interface is
// nil, so any other call panics, which the test would see.
type server struct{ tfprotov6.ProviderServer }

func (server) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return &tfprotov6.GetProviderSchemaResponse{
		Provider:          &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{}},
		ResourceSchemas:   map[string]*tfprotov6.Schema{"shapes_thing": thingSchema()},
		DataSourceSchemas: map[string]*tfprotov6.Schema{},
	}, nil
}

func (server) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	return &tfprotov6.GetMetadataResponse{Resources: []tfprotov6.ResourceMetadata{{TypeName: "shapes_thing"}}}, nil
}

func (server) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{}, nil
}

func (server) ValidateProviderConfig(_ context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config}, nil
}

func (server) ConfigureProvider(context.Context, *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

func (server) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}

func (server) ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}

func (server) UpgradeResourceState(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	v, err := req.RawState.UnmarshalWithOpts(thingType, tfprotov6.UnmarshalOpts{})
	if err != nil {
		return nil, err
	}
	state, err := tfprotov6.NewDynamicValue(thingType, v)
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &state}, err
}

func (server) ReadResource(_ context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, Private: req.Private}, nil
}

// PlanResourceChange plans what it is given, the id unknown until the
// thing is created and kept after.
func (server) PlanResourceChange(_ context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	id := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	if prior, err := attrs(req.PriorState); err != nil {
		return nil, err
	} else if prior != nil {
		id = prior["id"]
	}
	planned, err := withID(req.ProposedNewState, id)
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: planned}, err
}

// ApplyResourceChange stores the plan, with an id for what it creates.
func (server) ApplyResourceChange(_ context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	planned, err := attrs(req.PlannedState)
	if err != nil || planned == nil {
		return &tfprotov6.ApplyResourceChangeResponse{NewState: req.PlannedState}, err
	}
	id := planned["id"]
	if !id.IsKnown() {
		id = tftypes.NewValue(tftypes.String, "thing-1")
	}
	state, err := withID(req.PlannedState, id)
	return &tfprotov6.ApplyResourceChangeResponse{NewState: state}, err
}

// attrs are a state's attributes; nil for a null state.
func attrs(dv *tfprotov6.DynamicValue) (map[string]tftypes.Value, error) {
	if dv == nil {
		return nil, nil
	}
	v, err := dv.Unmarshal(thingType)
	if err != nil || v.IsNull() {
		return nil, err
	}
	var out map[string]tftypes.Value
	return out, v.As(&out)
}

// withID is the state dv with its id set; a null state stays null.
func withID(dv *tfprotov6.DynamicValue, id tftypes.Value) (*tfprotov6.DynamicValue, error) {
	a, err := attrs(dv)
	if err != nil || a == nil {
		return dv, err
	}
	a["id"] = id
	out, err := tfprotov6.NewDynamicValue(thingType, tftypes.NewValue(thingType, a))
	return &out, err
}
