package tfplugin

import (
	"context"
	"fmt"
	"google.golang.org/protobuf/proto"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plinth-iac/plinth/sdk/tfplugin5"
)

// wire5 speaks tfplugin5. Converters are named for their output: to5* make
// protocol messages, from5* read them.
type wire5 struct {
	c tfplugin5.ProviderClient
}

var _ wire = (*wire5)(nil)

func to5Dynamic(v dynamicValue) *tfplugin5.DynamicValue {
	return &tfplugin5.DynamicValue{Msgpack: v.msgpack, Json: v.json}
}

func from5Dynamic(v *tfplugin5.DynamicValue) dynamicValue {
	if v == nil {
		return dynamicValue{}
	}
	return dynamicValue{msgpack: v.Msgpack, json: v.Json}
}

func from5Diagnostics(ds []*tfplugin5.Diagnostic) []diagnostic {
	out := make([]diagnostic, 0, len(ds))
	for _, d := range ds {
		sev := severityError
		if d.Severity == tfplugin5.Diagnostic_WARNING {
			sev = severityWarning
		}
		out = append(out, diagnostic{severity: sev, summary: d.Summary, detail: d.Detail, path: from5Path(d.Attribute)})
	}
	return out
}

func from5Path(p *tfplugin5.AttributePath) cty.Path {
	if p == nil || len(p.Steps) == 0 {
		return nil
	}
	path := make(cty.Path, 0, len(p.Steps))
	for _, s := range p.Steps {
		switch sel := s.Selector.(type) {
		case *tfplugin5.AttributePath_Step_AttributeName:
			path = append(path, cty.GetAttrStep{Name: sel.AttributeName})
		case *tfplugin5.AttributePath_Step_ElementKeyString:
			path = append(path, cty.IndexStep{Key: cty.StringVal(sel.ElementKeyString)})
		case *tfplugin5.AttributePath_Step_ElementKeyInt:
			path = append(path, cty.IndexStep{Key: cty.NumberIntVal(sel.ElementKeyInt)})
		}
	}
	return path
}

func from5Paths(ps []*tfplugin5.AttributePath) []cty.Path {
	out := make([]cty.Path, 0, len(ps))
	for _, p := range ps {
		out = append(out, from5Path(p))
	}
	return out
}

func from5Deferred(d *tfplugin5.Deferred) deferral {
	if d == nil {
		return ""
	}
	return deferral(strings.ToLower(d.Reason.String()))
}

func from5Schema(s *tfplugin5.Schema) (*schema, error) {
	if s == nil {
		return &schema{block: &block{}}, nil
	}
	b, err := from5Block(s.Block)
	if err != nil {
		return nil, err
	}
	return &schema{version: s.Version, block: b}, nil
}

func from5Block(pb *tfplugin5.Schema_Block) (*block, error) {
	b := &block{attributes: map[string]*attribute{}, blocks: map[string]*nestedBlock{}}
	if pb == nil {
		return b, nil
	}
	b.description, b.deprecated = pb.Description, pb.Deprecated
	for _, a := range pb.Attributes {
		attr, err := from5Attribute(a)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", a.Name, err)
		}
		b.attributes[a.Name] = attr
	}
	for _, nb := range pb.BlockTypes {
		inner, err := from5Block(nb.Block)
		if err != nil {
			return nil, fmt.Errorf("block %s: %w", nb.TypeName, err)
		}
		b.blocks[nb.TypeName] = &nestedBlock{block: inner, nesting: nesting(nb.Nesting), minItems: nb.MinItems, maxItems: nb.MaxItems}
	}
	return b, nil
}

func from5Attribute(a *tfplugin5.Schema_Attribute) (*attribute, error) {
	ty, err := ctyjson.UnmarshalType(a.Type)
	if err != nil {
		return nil, fmt.Errorf("invalid type %s: %w", a.Type, err)
	}
	return &attribute{
		typ: ty, description: a.Description, required: a.Required, optional: a.Optional,
		computed: a.Computed, sensitive: a.Sensitive, writeOnly: a.WriteOnly, deprecated: a.Deprecated,
	}, nil
}

func from5Function(f *tfplugin5.Function) (*function, error) {
	fn := &function{summary: f.Summary, description: f.Description}
	for _, p := range f.Parameters {
		pp, err := from5Param(p)
		if err != nil {
			return nil, err
		}
		fn.params = append(fn.params, pp)
	}
	if f.VariadicParameter != nil {
		pp, err := from5Param(f.VariadicParameter)
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

func from5Param(p *tfplugin5.Function_Parameter) (param, error) {
	ty, err := ctyjson.UnmarshalType(p.Type)
	if err != nil {
		return param{}, fmt.Errorf("parameter %s: %w", p.Name, err)
	}
	return param{name: p.Name, typ: ty, allowNull: p.AllowNullValue, allowUnknown: p.AllowUnknownValues, description: p.Description}, nil
}

func (w *wire5) schema(ctx context.Context) (schemaResponse, error) {
	resp, err := w.c.GetSchema(ctx, &tfplugin5.GetProviderSchema_Request{})
	if err != nil {
		return schemaResponse{}, err
	}
	out, err := from5SchemaResponse(resp)
	out.encode = func() ([]byte, error) { return proto.Marshal(resp) }
	return out, err
}

// decodeSchema reads a GetProviderSchema answer kept by the schema cache.
func (w *wire5) decodeSchema(raw []byte) (schemaResponse, error) {
	var resp tfplugin5.GetProviderSchema_Response
	if err := proto.Unmarshal(raw, &resp); err != nil {
		return schemaResponse{}, err
	}
	return from5SchemaResponse(&resp)
}

// from5SchemaResponse converts a GetProviderSchema answer.
func from5SchemaResponse(resp *tfplugin5.GetProviderSchema_Response) (schemaResponse, error) {
	var err error
	out := schemaResponse{
		resources: map[string]*schema{}, dataSources: map[string]*schema{}, ephemerals: map[string]*schema{}, functions: map[string]*function{},
		diags: from5Diagnostics(resp.Diagnostics),
	}
	if c := resp.ServerCapabilities; c != nil {
		out.caps = capabilities{planDestroy: c.PlanDestroy, moveResourceState: c.MoveResourceState, schemaOptional: c.GetProviderSchemaOptional}
	}
	if out.provider, err = from5Schema(resp.Provider); err != nil {
		return out, fmt.Errorf("provider schema: %w", err)
	}
	if err := from5Schemas(resp.ResourceSchemas, out.resources); err != nil {
		return out, err
	}
	if err := from5Schemas(resp.DataSourceSchemas, out.dataSources); err != nil {
		return out, err
	}
	if err := from5Schemas(resp.EphemeralResourceSchemas, out.ephemerals); err != nil {
		return out, err
	}
	for name, f := range resp.Functions {
		if out.functions[name], err = from5Function(f); err != nil {
			return out, fmt.Errorf("function %s: %w", name, err)
		}
	}
	return out, nil
}

func from5Schemas(in map[string]*tfplugin5.Schema, out map[string]*schema) error {
	for name, s := range in {
		conv, err := from5Schema(s)
		if err != nil {
			return fmt.Errorf("schema of %s: %w", name, err)
		}
		out[name] = conv
	}
	return nil
}

func (w *wire5) validateProviderConfig(ctx context.Context, config dynamicValue) ([]diagnostic, error) {
	resp, err := w.c.PrepareProviderConfig(ctx, &tfplugin5.PrepareProviderConfig_Request{Config: to5Dynamic(config)})
	if err != nil {
		return nil, err
	}
	return from5Diagnostics(resp.Diagnostics), nil
}

func (w *wire5) validateResourceConfig(ctx context.Context, typeName string, config dynamicValue) ([]diagnostic, error) {
	resp, err := w.c.ValidateResourceTypeConfig(ctx, &tfplugin5.ValidateResourceTypeConfig_Request{
		TypeName: typeName, Config: to5Dynamic(config), ClientCapabilities: clientCaps5(),
	})
	if err != nil {
		return nil, err
	}
	return from5Diagnostics(resp.Diagnostics), nil
}

func (w *wire5) validateDataConfig(ctx context.Context, typeName string, config dynamicValue) ([]diagnostic, error) {
	resp, err := w.c.ValidateDataSourceConfig(ctx, &tfplugin5.ValidateDataSourceConfig_Request{TypeName: typeName, Config: to5Dynamic(config)})
	if err != nil {
		return nil, err
	}
	return from5Diagnostics(resp.Diagnostics), nil
}

func (w *wire5) upgradeState(ctx context.Context, req upgradeRequest) (upgradeResponse, error) {
	resp, err := w.c.UpgradeResourceState(ctx, &tfplugin5.UpgradeResourceState_Request{
		TypeName: req.typeName, Version: req.version, RawState: &tfplugin5.RawState{Json: req.rawJSON},
	})
	if err != nil {
		return upgradeResponse{}, err
	}
	return upgradeResponse{state: from5Dynamic(resp.UpgradedState), diags: from5Diagnostics(resp.Diagnostics)}, nil
}

// clientCaps5 says what plinth handles: write-only attributes (it never
// stores them), but not deferred actions.
func clientCaps5() *tfplugin5.ClientCapabilities {
	return &tfplugin5.ClientCapabilities{WriteOnlyAttributesAllowed: true}
}

func (w *wire5) configure(ctx context.Context, config dynamicValue) ([]diagnostic, error) {
	resp, err := w.c.Configure(ctx, &tfplugin5.Configure_Request{
		TerraformVersion: terraformVersion, Config: to5Dynamic(config), ClientCapabilities: clientCaps5(),
	})
	if err != nil {
		return nil, err
	}
	return from5Diagnostics(resp.Diagnostics), nil
}

func (w *wire5) readResource(ctx context.Context, req readRequest) (readResponse, error) {
	resp, err := w.c.ReadResource(ctx, &tfplugin5.ReadResource_Request{
		TypeName: req.typeName, CurrentState: to5Dynamic(req.state), Private: req.private, ClientCapabilities: clientCaps5(),
	})
	if err != nil {
		return readResponse{}, err
	}
	return readResponse{
		state: from5Dynamic(resp.NewState), private: resp.Private,
		diags: from5Diagnostics(resp.Diagnostics), deferred: from5Deferred(resp.Deferred),
	}, nil
}

func (w *wire5) planChange(ctx context.Context, req planRequest) (planResponse, error) {
	resp, err := w.c.PlanResourceChange(ctx, &tfplugin5.PlanResourceChange_Request{
		TypeName: req.typeName, PriorState: to5Dynamic(req.prior), ProposedNewState: to5Dynamic(req.proposed),
		Config: to5Dynamic(req.config), PriorPrivate: req.priorPrivate, ClientCapabilities: clientCaps5(),
	})
	if err != nil {
		return planResponse{}, err
	}
	return planResponse{
		planned: from5Dynamic(resp.PlannedState), requiresReplace: from5Paths(resp.RequiresReplace),
		plannedPrivate: resp.PlannedPrivate, legacyTypes: resp.LegacyTypeSystem,
		diags: from5Diagnostics(resp.Diagnostics), deferred: from5Deferred(resp.Deferred),
	}, nil
}

func (w *wire5) applyChange(ctx context.Context, req applyRequest) (applyResponse, error) {
	resp, err := w.c.ApplyResourceChange(ctx, &tfplugin5.ApplyResourceChange_Request{
		TypeName: req.typeName, PriorState: to5Dynamic(req.prior), PlannedState: to5Dynamic(req.planned),
		Config: to5Dynamic(req.config), PlannedPrivate: req.plannedPrivate,
	})
	if err != nil {
		return applyResponse{}, err
	}
	return applyResponse{
		state: from5Dynamic(resp.NewState), private: resp.Private, legacyTypes: resp.LegacyTypeSystem,
		diags: from5Diagnostics(resp.Diagnostics),
	}, nil
}

func (w *wire5) importState(ctx context.Context, typeName, id string) (importResponse, error) {
	resp, err := w.c.ImportResourceState(ctx, &tfplugin5.ImportResourceState_Request{
		TypeName: typeName, Id: id, ClientCapabilities: clientCaps5(),
	})
	if err != nil {
		return importResponse{}, err
	}
	out := importResponse{diags: from5Diagnostics(resp.Diagnostics), deferred: from5Deferred(resp.Deferred)}
	for _, r := range resp.ImportedResources {
		out.resources = append(out.resources, imported{typeName: r.TypeName, state: from5Dynamic(r.State), private: r.Private})
	}
	return out, nil
}

func (w *wire5) readData(ctx context.Context, typeName string, config dynamicValue) (readDataResponse, error) {
	resp, err := w.c.ReadDataSource(ctx, &tfplugin5.ReadDataSource_Request{
		TypeName: typeName, Config: to5Dynamic(config), ClientCapabilities: clientCaps5(),
	})
	if err != nil {
		return readDataResponse{}, err
	}
	return readDataResponse{state: from5Dynamic(resp.State), diags: from5Diagnostics(resp.Diagnostics), deferred: from5Deferred(resp.Deferred)}, nil
}

func (w *wire5) callFunction(ctx context.Context, name string, args []dynamicValue) (callResponse, error) {
	req := &tfplugin5.CallFunction_Request{Name: name}
	for _, a := range args {
		req.Arguments = append(req.Arguments, to5Dynamic(a))
	}
	resp, err := w.c.CallFunction(ctx, req)
	if err != nil {
		return callResponse{}, err
	}
	out := callResponse{result: from5Dynamic(resp.Result), argument: -1}
	if e := resp.Error; e != nil {
		out.err = e.Text
		if e.FunctionArgument != nil {
			out.argument = *e.FunctionArgument
		}
	}
	return out, nil
}

func (w *wire5) stop(ctx context.Context) error {
	resp, err := w.c.Stop(ctx, &tfplugin5.Stop_Request{})
	if err != nil {
		return err
	}
	if resp.Error != "" {
		return fmt.Errorf("%s", resp.Error)
	}
	return nil
}
