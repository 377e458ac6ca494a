package tfplugin

import (
	"context"
	"fmt"
	"google.golang.org/protobuf/proto"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plinth-iac/plinth/sdk/tfplugin6"
)

// wire6 speaks tfplugin6. Converters are named for their output: to6* make
// protocol messages, from6* read them.
type wire6 struct {
	c tfplugin6.ProviderClient
}

var _ wire = (*wire6)(nil)

func to6Dynamic(v dynamicValue) *tfplugin6.DynamicValue {
	return &tfplugin6.DynamicValue{Msgpack: v.msgpack, Json: v.json}
}

func from6Dynamic(v *tfplugin6.DynamicValue) dynamicValue {
	if v == nil {
		return dynamicValue{}
	}
	return dynamicValue{msgpack: v.Msgpack, json: v.Json}
}

func from6Diagnostics(ds []*tfplugin6.Diagnostic) []diagnostic {
	out := make([]diagnostic, 0, len(ds))
	for _, d := range ds {
		sev := severityError
		if d.Severity == tfplugin6.Diagnostic_WARNING {
			sev = severityWarning
		}
		out = append(out, diagnostic{severity: sev, summary: d.Summary, detail: d.Detail, path: from6Path(d.Attribute)})
	}
	return out
}

func from6Path(p *tfplugin6.AttributePath) cty.Path {
	if p == nil || len(p.Steps) == 0 {
		return nil
	}
	path := make(cty.Path, 0, len(p.Steps))
	for _, s := range p.Steps {
		switch sel := s.Selector.(type) {
		case *tfplugin6.AttributePath_Step_AttributeName:
			path = append(path, cty.GetAttrStep{Name: sel.AttributeName})
		case *tfplugin6.AttributePath_Step_ElementKeyString:
			path = append(path, cty.IndexStep{Key: cty.StringVal(sel.ElementKeyString)})
		case *tfplugin6.AttributePath_Step_ElementKeyInt:
			path = append(path, cty.IndexStep{Key: cty.NumberIntVal(sel.ElementKeyInt)})
		}
	}
	return path
}

func from6Paths(ps []*tfplugin6.AttributePath) []cty.Path {
	out := make([]cty.Path, 0, len(ps))
	for _, p := range ps {
		out = append(out, from6Path(p))
	}
	return out
}

func from6Deferred(d *tfplugin6.Deferred) deferral {
	if d == nil {
		return ""
	}
	return deferral(strings.ToLower(d.Reason.String()))
}

func from6Schema(s *tfplugin6.Schema) (*schema, error) {
	if s == nil {
		return &schema{block: &block{}}, nil
	}
	b, err := from6Block(s.Block)
	if err != nil {
		return nil, err
	}
	return &schema{version: s.Version, block: b}, nil
}

func from6Block(pb *tfplugin6.Schema_Block) (*block, error) {
	b := &block{attributes: map[string]*attribute{}, blocks: map[string]*nestedBlock{}}
	if pb == nil {
		return b, nil
	}
	b.description, b.deprecated = pb.Description, pb.Deprecated
	for _, a := range pb.Attributes {
		attr, err := from6Attribute(a)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", a.Name, err)
		}
		b.attributes[a.Name] = attr
	}
	for _, nb := range pb.BlockTypes {
		inner, err := from6Block(nb.Block)
		if err != nil {
			return nil, fmt.Errorf("block %s: %w", nb.TypeName, err)
		}
		b.blocks[nb.TypeName] = &nestedBlock{block: inner, nesting: nesting(nb.Nesting), minItems: nb.MinItems, maxItems: nb.MaxItems}
	}
	return b, nil
}

func from6Attribute(a *tfplugin6.Schema_Attribute) (*attribute, error) {
	attr := &attribute{
		description: a.Description, required: a.Required, optional: a.Optional,
		computed: a.Computed, sensitive: a.Sensitive, writeOnly: a.WriteOnly, deprecated: a.Deprecated,
	}
	if a.NestedType != nil {
		obj, err := from6Object(a.NestedType)
		attr.nested = obj
		return attr, err
	}
	ty, err := ctyjson.UnmarshalType(a.Type)
	if err != nil {
		return nil, fmt.Errorf("invalid type %s: %w", a.Type, err)
	}
	attr.typ = ty
	return attr, nil
}

func from6Object(o *tfplugin6.Schema_Object) (*object, error) {
	obj := &object{attributes: map[string]*attribute{}, nesting: nesting(o.Nesting)}
	for _, a := range o.Attributes {
		attr, err := from6Attribute(a)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", a.Name, err)
		}
		obj.attributes[a.Name] = attr
	}
	return obj, nil
}

func from6Function(f *tfplugin6.Function) (*function, error) {
	fn := &function{summary: f.Summary, description: f.Description}
	for _, p := range f.Parameters {
		pp, err := from6Param(p)
		if err != nil {
			return nil, err
		}
		fn.params = append(fn.params, pp)
	}
	if f.VariadicParameter != nil {
		pp, err := from6Param(f.VariadicParameter)
		if err != nil {
			return nil, err
		}
		fn.variadic = &pp
	}
	if f.Return != nil {
		ty, err := ctyjson.UnmarshalType(f.Return.Type)
		if err != nil {
			return nil, fmt.Errorf("return type: %w", err)
		}
		fn.returns = ty
	}
	return fn, nil
}

func from6Param(p *tfplugin6.Function_Parameter) (param, error) {
	ty, err := ctyjson.UnmarshalType(p.Type)
	if err != nil {
		return param{}, fmt.Errorf("parameter %s: %w", p.Name, err)
	}
	return param{name: p.Name, typ: ty, allowNull: p.AllowNullValue, allowUnknown: p.AllowUnknownValues, description: p.Description}, nil
}

func (w *wire6) schema(ctx context.Context) (schemaResponse, error) {
	resp, err := w.c.GetProviderSchema(ctx, &tfplugin6.GetProviderSchema_Request{})
	if err != nil {
		return schemaResponse{}, err
	}
	out, err := from6SchemaResponse(resp)
	out.encode = func() ([]byte, error) { return proto.Marshal(resp) }
	return out, err
}

// decodeSchema reads a GetProviderSchema answer kept by the schema cache.
func (w *wire6) decodeSchema(raw []byte) (schemaResponse, error) {
	var resp tfplugin6.GetProviderSchema_Response
	if err := proto.Unmarshal(raw, &resp); err != nil {
		return schemaResponse{}, err
	}
	return from6SchemaResponse(&resp)
}

// from6SchemaResponse converts a GetProviderSchema answer.
func from6SchemaResponse(resp *tfplugin6.GetProviderSchema_Response) (schemaResponse, error) {
	var err error
	out := schemaResponse{
		resources: map[string]*schema{}, dataSources: map[string]*schema{}, ephemerals: map[string]*schema{}, functions: map[string]*function{},
		diags: from6Diagnostics(resp.Diagnostics),
	}
	if c := resp.ServerCapabilities; c != nil {
		out.caps = capabilities{planDestroy: c.PlanDestroy, moveResourceState: c.MoveResourceState, schemaOptional: c.GetProviderSchemaOptional}
	}
	if out.provider, err = from6Schema(resp.Provider); err != nil {
		return out, fmt.Errorf("provider schema: %w", err)
	}
	if err := from6Schemas(resp.ResourceSchemas, out.resources); err != nil {
		return out, err
	}
	if err := from6Schemas(resp.DataSourceSchemas, out.dataSources); err != nil {
		return out, err
	}
	if err := from6Schemas(resp.EphemeralResourceSchemas, out.ephemerals); err != nil {
		return out, err
	}
	for name, f := range resp.Functions {
		if out.functions[name], err = from6Function(f); err != nil {
			return out, fmt.Errorf("function %s: %w", name, err)
		}
	}
	return out, nil
}

func from6Schemas(in map[string]*tfplugin6.Schema, out map[string]*schema) error {
	for name, s := range in {
		conv, err := from6Schema(s)
		if err != nil {
			return fmt.Errorf("schema of %s: %w", name, err)
		}
		out[name] = conv
	}
	return nil
}

func (w *wire6) validateProviderConfig(ctx context.Context, config dynamicValue) ([]diagnostic, error) {
	resp, err := w.c.ValidateProviderConfig(ctx, &tfplugin6.ValidateProviderConfig_Request{Config: to6Dynamic(config)})
	if err != nil {
		return nil, err
	}
	return from6Diagnostics(resp.Diagnostics), nil
}

func (w *wire6) validateResourceConfig(ctx context.Context, typeName string, config dynamicValue) ([]diagnostic, error) {
	resp, err := w.c.ValidateResourceConfig(ctx, &tfplugin6.ValidateResourceConfig_Request{
		TypeName: typeName, Config: to6Dynamic(config), ClientCapabilities: clientCaps6(),
	})
	if err != nil {
		return nil, err
	}
	return from6Diagnostics(resp.Diagnostics), nil
}

func (w *wire6) validateDataConfig(ctx context.Context, typeName string, config dynamicValue) ([]diagnostic, error) {
	resp, err := w.c.ValidateDataResourceConfig(ctx, &tfplugin6.ValidateDataResourceConfig_Request{TypeName: typeName, Config: to6Dynamic(config)})
	if err != nil {
		return nil, err
	}
	return from6Diagnostics(resp.Diagnostics), nil
}

func (w *wire6) upgradeState(ctx context.Context, req upgradeRequest) (upgradeResponse, error) {
	resp, err := w.c.UpgradeResourceState(ctx, &tfplugin6.UpgradeResourceState_Request{
		TypeName: req.typeName, Version: req.version, RawState: &tfplugin6.RawState{Json: req.rawJSON},
	})
	if err != nil {
		return upgradeResponse{}, err
	}
	return upgradeResponse{state: from6Dynamic(resp.UpgradedState), diags: from6Diagnostics(resp.Diagnostics)}, nil
}

// clientCaps6 says what plinth handles: write-only attributes (it never
// stores them), but not deferred actions.
func clientCaps6() *tfplugin6.ClientCapabilities {
	return &tfplugin6.ClientCapabilities{WriteOnlyAttributesAllowed: true}
}

func (w *wire6) configure(ctx context.Context, config dynamicValue) ([]diagnostic, error) {
	resp, err := w.c.ConfigureProvider(ctx, &tfplugin6.ConfigureProvider_Request{
		TerraformVersion: terraformVersion, Config: to6Dynamic(config), ClientCapabilities: clientCaps6(),
	})
	if err != nil {
		return nil, err
	}
	return from6Diagnostics(resp.Diagnostics), nil
}

func (w *wire6) readResource(ctx context.Context, req readRequest) (readResponse, error) {
	resp, err := w.c.ReadResource(ctx, &tfplugin6.ReadResource_Request{
		TypeName: req.typeName, CurrentState: to6Dynamic(req.state), Private: req.private, ClientCapabilities: clientCaps6(),
	})
	if err != nil {
		return readResponse{}, err
	}
	return readResponse{
		state: from6Dynamic(resp.NewState), private: resp.Private,
		diags: from6Diagnostics(resp.Diagnostics), deferred: from6Deferred(resp.Deferred),
	}, nil
}

func (w *wire6) planChange(ctx context.Context, req planRequest) (planResponse, error) {
	resp, err := w.c.PlanResourceChange(ctx, &tfplugin6.PlanResourceChange_Request{
		TypeName: req.typeName, PriorState: to6Dynamic(req.prior), ProposedNewState: to6Dynamic(req.proposed),
		Config: to6Dynamic(req.config), PriorPrivate: req.priorPrivate, ClientCapabilities: clientCaps6(),
	})
	if err != nil {
		return planResponse{}, err
	}
	return planResponse{
		planned: from6Dynamic(resp.PlannedState), requiresReplace: from6Paths(resp.RequiresReplace),
		plannedPrivate: resp.PlannedPrivate, legacyTypes: resp.LegacyTypeSystem,
		diags: from6Diagnostics(resp.Diagnostics), deferred: from6Deferred(resp.Deferred),
	}, nil
}

func (w *wire6) applyChange(ctx context.Context, req applyRequest) (applyResponse, error) {
	resp, err := w.c.ApplyResourceChange(ctx, &tfplugin6.ApplyResourceChange_Request{
		TypeName: req.typeName, PriorState: to6Dynamic(req.prior), PlannedState: to6Dynamic(req.planned),
		Config: to6Dynamic(req.config), PlannedPrivate: req.plannedPrivate,
	})
	if err != nil {
		return applyResponse{}, err
	}
	return applyResponse{
		state: from6Dynamic(resp.NewState), private: resp.Private, legacyTypes: resp.LegacyTypeSystem,
		diags: from6Diagnostics(resp.Diagnostics),
	}, nil
}

func (w *wire6) importState(ctx context.Context, typeName, id string) (importResponse, error) {
	resp, err := w.c.ImportResourceState(ctx, &tfplugin6.ImportResourceState_Request{
		TypeName: typeName, Id: id, ClientCapabilities: clientCaps6(),
	})
	if err != nil {
		return importResponse{}, err
	}
	out := importResponse{diags: from6Diagnostics(resp.Diagnostics), deferred: from6Deferred(resp.Deferred)}
	for _, r := range resp.ImportedResources {
		out.resources = append(out.resources, imported{typeName: r.TypeName, state: from6Dynamic(r.State), private: r.Private})
	}
	return out, nil
}

func (w *wire6) readData(ctx context.Context, typeName string, config dynamicValue) (readDataResponse, error) {
	resp, err := w.c.ReadDataSource(ctx, &tfplugin6.ReadDataSource_Request{
		TypeName: typeName, Config: to6Dynamic(config), ClientCapabilities: clientCaps6(),
	})
	if err != nil {
		return readDataResponse{}, err
	}
	return readDataResponse{state: from6Dynamic(resp.State), diags: from6Diagnostics(resp.Diagnostics), deferred: from6Deferred(resp.Deferred)}, nil
}

func (w *wire6) callFunction(ctx context.Context, name string, args []dynamicValue) (callResponse, error) {
	req := &tfplugin6.CallFunction_Request{Name: name}
	for _, a := range args {
		req.Arguments = append(req.Arguments, to6Dynamic(a))
	}
	resp, err := w.c.CallFunction(ctx, req)
	if err != nil {
		return callResponse{}, err
	}
	out := callResponse{result: from6Dynamic(resp.Result), argument: -1}
	if e := resp.Error; e != nil {
		out.err = e.Text
		if e.FunctionArgument != nil {
			out.argument = *e.FunctionArgument
		}
	}
	return out, nil
}

func (w *wire6) stop(ctx context.Context) error {
	resp, err := w.c.StopProvider(ctx, &tfplugin6.StopProvider_Request{})
	if err != nil {
		return err
	}
	if resp.Error != "" {
		return fmt.Errorf("%s", resp.Error)
	}
	return nil
}
