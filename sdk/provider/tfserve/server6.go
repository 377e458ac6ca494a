package tfserve

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/plinth-iac/plinth/sdk/provider"
)

// Server6 serves an SDK provider over protocol 6, with nested objects as
// nested attributes.
type Server6 struct{ c *core }

var _ tfprotov6.ProviderServer = (*Server6)(nil)

// NewServer6 serves p over protocol 6. It fails if p's schema cannot be
// written in Terraform's terms (a property named id, two types with the
// same Terraform name).
func NewServer6(p provider.Provider) (*Server6, error) {
	c, err := newCore(p, false)
	if err != nil {
		return nil, err
	}
	return &Server6{c: c}, nil
}

var codec6 = codec[tfprotov6.DynamicValue]{decode: value6, encode: dynamic6}

func diags6(ds diags) []*tfprotov6.Diagnostic {
	out := make([]*tfprotov6.Diagnostic, 0, len(ds))
	for _, d := range ds {
		sev := tfprotov6.DiagnosticSeverityError
		if d.warning {
			sev = tfprotov6.DiagnosticSeverityWarning
		}
		out = append(out, &tfprotov6.Diagnostic{Severity: sev, Summary: d.summary, Detail: d.detail, Attribute: d.path})
	}
	return out
}

// value6 decodes a request value of type t; nil is null.
func value6(dv *tfprotov6.DynamicValue, t tftypes.Type) (tftypes.Value, error) {
	if dv == nil {
		return tftypes.NewValue(t, nil), nil
	}
	return dv.Unmarshal(t)
}

// dynamic6 encodes a response value.
func dynamic6(t tftypes.Type, v tftypes.Value) (*tfprotov6.DynamicValue, diags) {
	if v.Type() == nil {
		v = tftypes.NewValue(t, nil)
	}
	dv, err := tfprotov6.NewDynamicValue(t, v)
	if err != nil {
		return nil, diags{{summary: "Cannot encode a value for Terraform", detail: err.Error() + ". This is a bug in tfserve or the provider."}}
	}
	return &dv, nil
}

// GetMetadata lists the resource types, data sources and functions.
func (s *Server6) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	resp := &tfprotov6.GetMetadataResponse{ServerCapabilities: capabilities6()}
	for _, name := range sortedNames(s.c.m.resources) {
		resp.Resources = append(resp.Resources, tfprotov6.ResourceMetadata{TypeName: name})
	}
	for _, name := range sortedNames(s.c.m.data) {
		resp.DataSources = append(resp.DataSources, tfprotov6.DataSourceMetadata{TypeName: name})
	}
	for _, name := range sortedNames(s.c.m.functions) {
		resp.Functions = append(resp.Functions, tfprotov6.FunctionMetadata{Name: name})
	}
	for _, name := range sortedNames(s.c.m.ephemerals) {
		resp.EphemeralResources = append(resp.EphemeralResources, tfprotov6.EphemeralResourceMetadata{TypeName: name})
	}
	return resp, nil
}

func capabilities6() *tfprotov6.ServerCapabilities {
	return &tfprotov6.ServerCapabilities{GetProviderSchemaOptional: true}
}

// GetProviderSchema returns every schema.
func (s *Server6) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	resp := &tfprotov6.GetProviderSchemaResponse{ServerCapabilities: capabilities6(),
		Provider:          &tfprotov6.Schema{Block: block6(s.c.m.config, "")},
		ResourceSchemas:   map[string]*tfprotov6.Schema{},
		DataSourceSchemas: map[string]*tfprotov6.Schema{},
		Functions:         functions6(s.c.m)}
	for name, r := range s.c.m.resources {
		resp.ResourceSchemas[name] = &tfprotov6.Schema{Version: r.version, Block: block6(r.obj, r.doc)}
	}
	for name, f := range s.c.m.data {
		resp.DataSourceSchemas[name] = &tfprotov6.Schema{Block: block6(f.dataObj, f.doc)}
	}
	resp.EphemeralResourceSchemas = map[string]*tfprotov6.Schema{}
	for name, e := range s.c.m.ephemerals {
		resp.EphemeralResourceSchemas[name] = &tfprotov6.Schema{Block: block6(e.obj, e.doc)}
	}
	return resp, nil
}

func block6(t *vtype, doc string) *tfprotov6.SchemaBlock {
	b := &tfprotov6.SchemaBlock{Description: doc, Attributes: attributes6(t)}
	for _, a := range t.attrs {
		if a.block {
			b.BlockTypes = append(b.BlockTypes, nestedBlock6(a))
		}
	}
	return b
}

// nestedBlock6 writes a nested object the SDK asks to be a block (see
// provider.Property.Block): single, list or map.
func nestedBlock6(a *attr) *tfprotov6.SchemaNestedBlock {
	nb := &tfprotov6.SchemaNestedBlock{TypeName: a.tf, Block: block6(a.t.nestedObject(), a.description())}
	nb.Block.Deprecated = a.deprecated != ""
	switch a.t.kind {
	case kindList:
		nb.Nesting = tfprotov6.SchemaNestedBlockNestingModeList
		if a.required {
			nb.MinItems = 1
		}
	case kindSet:
		nb.Nesting = tfprotov6.SchemaNestedBlockNestingModeSet
		if a.required {
			nb.MinItems = 1
		}
	case kindMap:
		nb.Nesting = tfprotov6.SchemaNestedBlockNestingModeMap
	default:
		nb.Nesting = tfprotov6.SchemaNestedBlockNestingModeSingle
	}
	return nb
}

func attributes6(t *vtype) []*tfprotov6.SchemaAttribute {
	out := make([]*tfprotov6.SchemaAttribute, 0, len(t.attrs))
	for _, a := range t.attrs {
		if a.block {
			continue
		}
		sa := &tfprotov6.SchemaAttribute{Name: a.tf, Description: a.description(), Required: a.required,
			Optional: a.optional, Computed: a.computed, Sensitive: a.sensitive,
			Deprecated: a.deprecated != "", WriteOnly: a.writeOnly}
		if obj := a.t.nestedObject(); obj != nil {
			sa.NestedType = &tfprotov6.SchemaObject{Attributes: attributes6(obj), Nesting: nesting6(a.t)}
		} else {
			sa.Type = a.t.tftype()
		}
		out = append(out, sa)
	}
	return out
}

func nesting6(t *vtype) tfprotov6.SchemaObjectNestingMode {
	switch t.kind {
	case kindList:
		return tfprotov6.SchemaObjectNestingModeList
	case kindSet:
		return tfprotov6.SchemaObjectNestingModeSet
	case kindMap:
		return tfprotov6.SchemaObjectNestingModeMap
	}
	return tfprotov6.SchemaObjectNestingModeSingle
}

func functions6(m *model) map[string]*tfprotov6.Function {
	out := map[string]*tfprotov6.Function{}
	for name, f := range m.functions {
		fn := &tfprotov6.Function{Summary: summaryOf(f.doc), Description: f.doc,
			Return: &tfprotov6.FunctionReturn{Type: f.result.tftype()}}
		for _, a := range f.params() {
			fn.Parameters = append(fn.Parameters, &tfprotov6.FunctionParameter{Name: a.tf, Type: a.t.tftype(),
				AllowNullValue: !a.required, Description: a.doc})
		}
		if v := f.variadic(); v != nil {
			fn.VariadicParameter = &tfprotov6.FunctionParameter{Name: v.tf, Type: v.t.elem.tftype(), Description: v.doc}
		}
		out[name] = fn
	}
	return out
}

// GetResourceIdentitySchemas answers that no resource has an identity.
func (s *Server6) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{IdentitySchemas: map[string]*tfprotov6.ResourceIdentitySchema{}}, nil
}

// ValidateProviderConfig checks the provider configuration.
func (s *Server6) ValidateProviderConfig(ctx context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	ds, ok := checkConfig(codec6, req.Config, s.c.m.config.tftype(), "the provider configuration",
		func(v tftypes.Value) diags { return s.c.validateConfig(ctx, v) })
	resp := &tfprotov6.ValidateProviderConfigResponse{Diagnostics: diags6(ds)}
	if ok {
		resp.PreparedConfig = req.Config
	}
	return resp, nil
}

// ConfigureProvider configures the provider.
func (s *Server6) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	ds, _ := checkConfig(codec6, req.Config, s.c.m.config.tftype(), "the provider configuration",
		func(v tftypes.Value) diags { return s.c.configure(ctx, v) })
	return &tfprotov6.ConfigureProviderResponse{Diagnostics: diags6(ds)}, nil
}

// StopProvider cancels work in flight.
func (s *Server6) StopProvider(ctx context.Context, _ *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{Error: s.c.stop(ctx)}, nil
}

// ValidateResourceConfig checks a resource's configuration.
func (s *Server6) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	ds, _ := checkConfig(codec6, req.Config, s.c.resourceType(req.TypeName), "the configuration",
		func(v tftypes.Value) diags { return s.c.validateResource(ctx, req.TypeName, v) })
	return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: diags6(ds)}, nil
}

// UpgradeResourceState brings recorded state to the current schema.
func (s *Server6) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	if req.RawState == nil || req.RawState.JSON == nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: diags6(notJSON(req.TypeName))}, nil
	}
	decode := func(t tftypes.Type) (tftypes.Value, error) {
		return req.RawState.UnmarshalWithOpts(t, tfprotov6.UnmarshalOpts{ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true}})
	}
	dv, ds := upgradeState(ctx, s.c, codec6, req.TypeName, req.Version, req.RawState.JSON, decode)
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: dv, Diagnostics: diags6(ds)}, nil
}

// ReadResource refreshes a resource; one that is gone reads as null.
func (s *Server6) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	dv, priv, ds := readState(ctx, s.c, codec6, req.TypeName, req.CurrentState, req.Private)
	return &tfprotov6.ReadResourceResponse{NewState: dv, Private: priv, Diagnostics: diags6(ds)}, nil
}

// PlanResourceChange plans a create, update, replacement or delete.
func (s *Server6) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	dv, replace, priv, ds := planChange(ctx, s.c, codec6, req.TypeName, req.PriorState, req.ProposedNewState, req.Config, req.PriorPrivate)
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: dv, RequiresReplace: replace,
		PlannedPrivate: priv, Diagnostics: diags6(ds)}, nil
}

// ApplyResourceChange carries out a planned change.
func (s *Server6) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	dv, priv, ds := applyChange(ctx, s.c, codec6, req.TypeName, req.PriorState, req.PlannedState, req.Config, req.PlannedPrivate)
	return &tfprotov6.ApplyResourceChangeResponse{NewState: dv, Private: priv, Diagnostics: diags6(ds)}, nil
}

// ImportResourceState reads an existing object by its ID.
func (s *Server6) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	dv, priv, ds, ok := importState(ctx, s.c, codec6, req.TypeName, req.ID)
	resp := &tfprotov6.ImportResourceStateResponse{Diagnostics: diags6(ds)}
	if ok {
		resp.ImportedResources = []*tfprotov6.ImportedResource{{TypeName: req.TypeName, State: dv, Private: priv}}
	}
	return resp, nil
}

// MoveResourceState is not supported: SDK resources cannot move between
// types.
func (s *Server6) MoveResourceState(_ context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return &tfprotov6.MoveResourceStateResponse{Diagnostics: diags6(unsupported("Moving state into " + req.TargetTypeName))}, nil
}

// UpgradeResourceIdentity is not supported: no resource has an identity.
func (s *Server6) UpgradeResourceIdentity(context.Context, *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return &tfprotov6.UpgradeResourceIdentityResponse{Diagnostics: diags6(unsupported("Resource identity"))}, nil
}

// GenerateResourceConfig is not supported.
func (s *Server6) GenerateResourceConfig(context.Context, *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return &tfprotov6.GenerateResourceConfigResponse{Diagnostics: diags6(unsupported("Generating configuration"))}, nil
}

// ValidateDataResourceConfig checks a data source's arguments.
func (s *Server6) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	ds, _ := checkConfig(codec6, req.Config, s.c.dataType(req.TypeName), "the configuration",
		func(v tftypes.Value) diags { return s.c.validateData(ctx, req.TypeName, v) })
	return &tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: diags6(ds)}, nil
}

// ReadDataSource calls the function behind a data source.
func (s *Server6) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	dv, ds := readDataSource(ctx, s.c, codec6, req.TypeName, req.Config)
	return &tfprotov6.ReadDataSourceResponse{State: dv, Diagnostics: diags6(ds)}, nil
}

// GetFunctions returns the provider-defined functions.
func (s *Server6) GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return &tfprotov6.GetFunctionsResponse{Functions: functions6(s.c.m)}, nil
}

// CallFunction calls a provider-defined function.
func (s *Server6) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	dv, ferr := call(ctx, s.c, codec6, req.Name, req.Arguments)
	if ferr != nil {
		return &tfprotov6.CallFunctionResponse{Error: funcError6(ferr)}, nil
	}
	return &tfprotov6.CallFunctionResponse{Result: dv}, nil
}

func funcError6(e *funcError) *tfprotov6.FunctionError {
	out := &tfprotov6.FunctionError{Text: e.text}
	if e.arg >= 0 {
		n := int64(e.arg)
		out.FunctionArgument = &n
	}
	return out
}

// ValidateEphemeralResourceConfig checks an ephemeral resource's arguments.
func (s *Server6) ValidateEphemeralResourceConfig(ctx context.Context, req *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	ds, _ := checkConfig(codec6, req.Config, s.c.ephemeralType(req.TypeName), "the configuration",
		func(v tftypes.Value) diags { return s.c.validateEphemeral(ctx, req.TypeName, v) })
	return &tfprotov6.ValidateEphemeralResourceConfigResponse{Diagnostics: diags6(ds)}, nil
}

// OpenEphemeralResource opens an ephemeral resource with the SDK's Open.
func (s *Server6) OpenEphemeralResource(ctx context.Context, req *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	dv, o, ds := openEphemeralResource(ctx, s.c, codec6, req.TypeName, req.Config)
	return &tfprotov6.OpenEphemeralResourceResponse{Result: dv, Private: o.private, RenewAt: o.renewAt, Diagnostics: diags6(ds)}, nil
}

// RenewEphemeralResource renews an ephemeral resource with the SDK's Renew.
func (s *Server6) RenewEphemeralResource(ctx context.Context, req *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	resp, ds := s.c.renewEphemeral(ctx, req.TypeName, req.Private)
	return &tfprotov6.RenewEphemeralResourceResponse{Private: resp.Private, RenewAt: resp.RenewAt, Diagnostics: diags6(ds)}, nil
}

// CloseEphemeralResource closes an ephemeral resource with the SDK's Close.
func (s *Server6) CloseEphemeralResource(ctx context.Context, req *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return &tfprotov6.CloseEphemeralResourceResponse{Diagnostics: diags6(s.c.closeEphemeral(ctx, req.TypeName, req.Private))}, nil
}
