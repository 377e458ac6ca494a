package tfserve

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/plinth-iac/plinth/sdk/provider"
)

// Server5 serves an SDK provider over protocol 5: nested objects the
// configuration sets are nested blocks, computed ones object attributes.
type Server5 struct{ c *core }

var _ tfprotov5.ProviderServer = (*Server5)(nil)

// NewServer5 serves p over protocol 5. It fails if p's schema cannot be
// written in Terraform's terms (a property named id, two types with the
// same Terraform name).
func NewServer5(p provider.Provider) (*Server5, error) {
	c, err := newCore(p, true)
	if err != nil {
		return nil, err
	}
	return &Server5{c: c}, nil
}

var codec5 = codec[tfprotov5.DynamicValue]{decode: value5, encode: dynamic5}

func diags5(ds diags) []*tfprotov5.Diagnostic {
	out := make([]*tfprotov5.Diagnostic, 0, len(ds))
	for _, d := range ds {
		sev := tfprotov5.DiagnosticSeverityError
		if d.warning {
			sev = tfprotov5.DiagnosticSeverityWarning
		}
		out = append(out, &tfprotov5.Diagnostic{Severity: sev, Summary: d.summary, Detail: d.detail, Attribute: d.path})
	}
	return out
}

// value5 decodes a request value of type t; nil is null.
func value5(dv *tfprotov5.DynamicValue, t tftypes.Type) (tftypes.Value, error) {
	if dv == nil {
		return tftypes.NewValue(t, nil), nil
	}
	return dv.Unmarshal(t)
}

// dynamic5 encodes a response value.
func dynamic5(t tftypes.Type, v tftypes.Value) (*tfprotov5.DynamicValue, diags) {
	if v.Type() == nil {
		v = tftypes.NewValue(t, nil)
	}
	dv, err := tfprotov5.NewDynamicValue(t, v)
	if err != nil {
		return nil, diags{{summary: "Cannot encode a value for Terraform", detail: err.Error() + ". This is a bug in tfserve or the provider."}}
	}
	return &dv, nil
}

// GetMetadata lists the resource types, data sources and functions.
func (s *Server5) GetMetadata(context.Context, *tfprotov5.GetMetadataRequest) (*tfprotov5.GetMetadataResponse, error) {
	resp := &tfprotov5.GetMetadataResponse{ServerCapabilities: capabilities5()}
	for _, name := range sortedNames(s.c.m.resources) {
		resp.Resources = append(resp.Resources, tfprotov5.ResourceMetadata{TypeName: name})
	}
	for _, name := range sortedNames(s.c.m.data) {
		resp.DataSources = append(resp.DataSources, tfprotov5.DataSourceMetadata{TypeName: name})
	}
	for _, name := range sortedNames(s.c.m.functions) {
		resp.Functions = append(resp.Functions, tfprotov5.FunctionMetadata{Name: name})
	}
	for _, name := range sortedNames(s.c.m.ephemerals) {
		resp.EphemeralResources = append(resp.EphemeralResources, tfprotov5.EphemeralResourceMetadata{TypeName: name})
	}
	return resp, nil
}

func capabilities5() *tfprotov5.ServerCapabilities {
	return &tfprotov5.ServerCapabilities{GetProviderSchemaOptional: true}
}

// GetProviderSchema returns every schema.
func (s *Server5) GetProviderSchema(context.Context, *tfprotov5.GetProviderSchemaRequest) (*tfprotov5.GetProviderSchemaResponse, error) {
	resp := &tfprotov5.GetProviderSchemaResponse{ServerCapabilities: capabilities5(),
		Provider:          &tfprotov5.Schema{Block: block5(s.c.m.config, "")},
		ResourceSchemas:   map[string]*tfprotov5.Schema{},
		DataSourceSchemas: map[string]*tfprotov5.Schema{},
		Functions:         functions5(s.c.m)}
	for name, r := range s.c.m.resources {
		resp.ResourceSchemas[name] = &tfprotov5.Schema{Version: r.version, Block: block5(r.obj, r.doc)}
	}
	for name, f := range s.c.m.data {
		resp.DataSourceSchemas[name] = &tfprotov5.Schema{Block: block5(f.dataObj, f.doc)}
	}
	resp.EphemeralResourceSchemas = map[string]*tfprotov5.Schema{}
	for name, e := range s.c.m.ephemerals {
		resp.EphemeralResourceSchemas[name] = &tfprotov5.Schema{Block: block5(e.obj, e.doc)}
	}
	return resp, nil
}

func block5(t *vtype, doc string) *tfprotov5.SchemaBlock {
	b := &tfprotov5.SchemaBlock{Description: doc}
	for _, a := range t.attrs {
		if a.block {
			b.BlockTypes = append(b.BlockTypes, nestedBlock5(a))
			continue
		}
		b.Attributes = append(b.Attributes, &tfprotov5.SchemaAttribute{Name: a.tf, Type: a.t.tftype(), Description: a.description(),
			Required: a.required, Optional: a.optional, Computed: a.computed, Sensitive: a.sensitive,
			Deprecated: a.deprecated != "", WriteOnly: a.writeOnly})
	}
	return b
}

// nestedBlock5 writes a nested object the configuration sets as a block:
// single, list or map; a required one must appear at least once.
func nestedBlock5(a *attr) *tfprotov5.SchemaNestedBlock {
	nb := &tfprotov5.SchemaNestedBlock{TypeName: a.tf, Block: block5(a.t.nestedObject(), a.description())}
	nb.Block.Deprecated = a.deprecated != ""
	switch a.t.kind {
	case kindList:
		nb.Nesting = tfprotov5.SchemaNestedBlockNestingModeList
		if a.required {
			nb.MinItems = 1
		}
	case kindSet:
		nb.Nesting = tfprotov5.SchemaNestedBlockNestingModeSet
		if a.required {
			nb.MinItems = 1
		}
	case kindMap:
		nb.Nesting = tfprotov5.SchemaNestedBlockNestingModeMap
	default:
		nb.Nesting = tfprotov5.SchemaNestedBlockNestingModeSingle
	}
	return nb
}

func functions5(m *model) map[string]*tfprotov5.Function {
	out := map[string]*tfprotov5.Function{}
	for name, f := range m.functions {
		fn := &tfprotov5.Function{Summary: summaryOf(f.doc), Description: f.doc,
			Return: &tfprotov5.FunctionReturn{Type: f.result.tftype()}}
		for _, a := range f.params() {
			fn.Parameters = append(fn.Parameters, &tfprotov5.FunctionParameter{Name: a.tf, Type: a.t.tftype(),
				AllowNullValue: !a.required, Description: a.doc})
		}
		if v := f.variadic(); v != nil {
			fn.VariadicParameter = &tfprotov5.FunctionParameter{Name: v.tf, Type: v.t.elem.tftype(), Description: v.doc}
		}
		out[name] = fn
	}
	return out
}

// GetResourceIdentitySchemas answers that no resource has an identity.
func (s *Server5) GetResourceIdentitySchemas(context.Context, *tfprotov5.GetResourceIdentitySchemasRequest) (*tfprotov5.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov5.GetResourceIdentitySchemasResponse{IdentitySchemas: map[string]*tfprotov5.ResourceIdentitySchema{}}, nil
}

// PrepareProviderConfig checks the provider configuration.
func (s *Server5) PrepareProviderConfig(ctx context.Context, req *tfprotov5.PrepareProviderConfigRequest) (*tfprotov5.PrepareProviderConfigResponse, error) {
	ds, ok := checkConfig(codec5, req.Config, s.c.m.config.tftype(), "the provider configuration",
		func(v tftypes.Value) diags { return s.c.validateConfig(ctx, v) })
	resp := &tfprotov5.PrepareProviderConfigResponse{Diagnostics: diags5(ds)}
	if ok {
		resp.PreparedConfig = req.Config
	}
	return resp, nil
}

// ConfigureProvider configures the provider.
func (s *Server5) ConfigureProvider(ctx context.Context, req *tfprotov5.ConfigureProviderRequest) (*tfprotov5.ConfigureProviderResponse, error) {
	ds, _ := checkConfig(codec5, req.Config, s.c.m.config.tftype(), "the provider configuration",
		func(v tftypes.Value) diags { return s.c.configure(ctx, v) })
	return &tfprotov5.ConfigureProviderResponse{Diagnostics: diags5(ds)}, nil
}

// StopProvider cancels work in flight.
func (s *Server5) StopProvider(ctx context.Context, _ *tfprotov5.StopProviderRequest) (*tfprotov5.StopProviderResponse, error) {
	return &tfprotov5.StopProviderResponse{Error: s.c.stop(ctx)}, nil
}

// ValidateResourceTypeConfig checks a resource's configuration.
func (s *Server5) ValidateResourceTypeConfig(ctx context.Context, req *tfprotov5.ValidateResourceTypeConfigRequest) (*tfprotov5.ValidateResourceTypeConfigResponse, error) {
	ds, _ := checkConfig(codec5, req.Config, s.c.resourceType(req.TypeName), "the configuration",
		func(v tftypes.Value) diags { return s.c.validateResource(ctx, req.TypeName, v) })
	return &tfprotov5.ValidateResourceTypeConfigResponse{Diagnostics: diags5(ds)}, nil
}

// UpgradeResourceState brings recorded state to the current schema.
func (s *Server5) UpgradeResourceState(ctx context.Context, req *tfprotov5.UpgradeResourceStateRequest) (*tfprotov5.UpgradeResourceStateResponse, error) {
	if req.RawState == nil || req.RawState.JSON == nil {
		return &tfprotov5.UpgradeResourceStateResponse{Diagnostics: diags5(notJSON(req.TypeName))}, nil
	}
	decode := func(t tftypes.Type) (tftypes.Value, error) {
		return req.RawState.UnmarshalWithOpts(t, tfprotov5.UnmarshalOpts{ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true}})
	}
	dv, ds := upgradeState(ctx, s.c, codec5, req.TypeName, req.Version, req.RawState.JSON, decode)
	return &tfprotov5.UpgradeResourceStateResponse{UpgradedState: dv, Diagnostics: diags5(ds)}, nil
}

// ReadResource refreshes a resource; one that is gone reads as null.
func (s *Server5) ReadResource(ctx context.Context, req *tfprotov5.ReadResourceRequest) (*tfprotov5.ReadResourceResponse, error) {
	dv, priv, ds := readState(ctx, s.c, codec5, req.TypeName, req.CurrentState, req.Private)
	return &tfprotov5.ReadResourceResponse{NewState: dv, Private: priv, Diagnostics: diags5(ds)}, nil
}

// PlanResourceChange plans a create, update, replacement or delete.
func (s *Server5) PlanResourceChange(ctx context.Context, req *tfprotov5.PlanResourceChangeRequest) (*tfprotov5.PlanResourceChangeResponse, error) {
	dv, replace, priv, ds := planChange(ctx, s.c, codec5, req.TypeName, req.PriorState, req.ProposedNewState, req.Config, req.PriorPrivate)
	return &tfprotov5.PlanResourceChangeResponse{PlannedState: dv, RequiresReplace: replace,
		PlannedPrivate: priv, Diagnostics: diags5(ds)}, nil
}

// ApplyResourceChange carries out a planned change.
func (s *Server5) ApplyResourceChange(ctx context.Context, req *tfprotov5.ApplyResourceChangeRequest) (*tfprotov5.ApplyResourceChangeResponse, error) {
	dv, priv, ds := applyChange(ctx, s.c, codec5, req.TypeName, req.PriorState, req.PlannedState, req.Config, req.PlannedPrivate)
	return &tfprotov5.ApplyResourceChangeResponse{NewState: dv, Private: priv, Diagnostics: diags5(ds)}, nil
}

// ImportResourceState reads an existing object by its ID.
func (s *Server5) ImportResourceState(ctx context.Context, req *tfprotov5.ImportResourceStateRequest) (*tfprotov5.ImportResourceStateResponse, error) {
	dv, priv, ds, ok := importState(ctx, s.c, codec5, req.TypeName, req.ID)
	resp := &tfprotov5.ImportResourceStateResponse{Diagnostics: diags5(ds)}
	if ok {
		resp.ImportedResources = []*tfprotov5.ImportedResource{{TypeName: req.TypeName, State: dv, Private: priv}}
	}
	return resp, nil
}

// MoveResourceState is not supported: SDK resources cannot move between
// types.
func (s *Server5) MoveResourceState(_ context.Context, req *tfprotov5.MoveResourceStateRequest) (*tfprotov5.MoveResourceStateResponse, error) {
	return &tfprotov5.MoveResourceStateResponse{Diagnostics: diags5(unsupported("Moving state into " + req.TargetTypeName))}, nil
}

// UpgradeResourceIdentity is not supported: no resource has an identity.
func (s *Server5) UpgradeResourceIdentity(context.Context, *tfprotov5.UpgradeResourceIdentityRequest) (*tfprotov5.UpgradeResourceIdentityResponse, error) {
	return &tfprotov5.UpgradeResourceIdentityResponse{Diagnostics: diags5(unsupported("Resource identity"))}, nil
}

// GenerateResourceConfig is not supported.
func (s *Server5) GenerateResourceConfig(context.Context, *tfprotov5.GenerateResourceConfigRequest) (*tfprotov5.GenerateResourceConfigResponse, error) {
	return &tfprotov5.GenerateResourceConfigResponse{Diagnostics: diags5(unsupported("Generating configuration"))}, nil
}

// ValidateDataSourceConfig checks a data source's arguments.
func (s *Server5) ValidateDataSourceConfig(ctx context.Context, req *tfprotov5.ValidateDataSourceConfigRequest) (*tfprotov5.ValidateDataSourceConfigResponse, error) {
	ds, _ := checkConfig(codec5, req.Config, s.c.dataType(req.TypeName), "the configuration",
		func(v tftypes.Value) diags { return s.c.validateData(ctx, req.TypeName, v) })
	return &tfprotov5.ValidateDataSourceConfigResponse{Diagnostics: diags5(ds)}, nil
}

// ReadDataSource calls the function behind a data source.
func (s *Server5) ReadDataSource(ctx context.Context, req *tfprotov5.ReadDataSourceRequest) (*tfprotov5.ReadDataSourceResponse, error) {
	dv, ds := readDataSource(ctx, s.c, codec5, req.TypeName, req.Config)
	return &tfprotov5.ReadDataSourceResponse{State: dv, Diagnostics: diags5(ds)}, nil
}

// GetFunctions returns the provider-defined functions.
func (s *Server5) GetFunctions(context.Context, *tfprotov5.GetFunctionsRequest) (*tfprotov5.GetFunctionsResponse, error) {
	return &tfprotov5.GetFunctionsResponse{Functions: functions5(s.c.m)}, nil
}

// CallFunction calls a provider-defined function.
func (s *Server5) CallFunction(ctx context.Context, req *tfprotov5.CallFunctionRequest) (*tfprotov5.CallFunctionResponse, error) {
	dv, ferr := call(ctx, s.c, codec5, req.Name, req.Arguments)
	if ferr != nil {
		return &tfprotov5.CallFunctionResponse{Error: funcError5(ferr)}, nil
	}
	return &tfprotov5.CallFunctionResponse{Result: dv}, nil
}

func funcError5(e *funcError) *tfprotov5.FunctionError {
	out := &tfprotov5.FunctionError{Text: e.text}
	if e.arg >= 0 {
		n := int64(e.arg)
		out.FunctionArgument = &n
	}
	return out
}

// ValidateEphemeralResourceConfig checks an ephemeral resource's arguments.
func (s *Server5) ValidateEphemeralResourceConfig(ctx context.Context, req *tfprotov5.ValidateEphemeralResourceConfigRequest) (*tfprotov5.ValidateEphemeralResourceConfigResponse, error) {
	ds, _ := checkConfig(codec5, req.Config, s.c.ephemeralType(req.TypeName), "the configuration",
		func(v tftypes.Value) diags { return s.c.validateEphemeral(ctx, req.TypeName, v) })
	return &tfprotov5.ValidateEphemeralResourceConfigResponse{Diagnostics: diags5(ds)}, nil
}

// OpenEphemeralResource opens an ephemeral resource with the SDK's Open.
func (s *Server5) OpenEphemeralResource(ctx context.Context, req *tfprotov5.OpenEphemeralResourceRequest) (*tfprotov5.OpenEphemeralResourceResponse, error) {
	dv, o, ds := openEphemeralResource(ctx, s.c, codec5, req.TypeName, req.Config)
	return &tfprotov5.OpenEphemeralResourceResponse{Result: dv, Private: o.private, RenewAt: o.renewAt, Diagnostics: diags5(ds)}, nil
}

// RenewEphemeralResource renews an ephemeral resource with the SDK's Renew.
func (s *Server5) RenewEphemeralResource(ctx context.Context, req *tfprotov5.RenewEphemeralResourceRequest) (*tfprotov5.RenewEphemeralResourceResponse, error) {
	resp, ds := s.c.renewEphemeral(ctx, req.TypeName, req.Private)
	return &tfprotov5.RenewEphemeralResourceResponse{Private: resp.Private, RenewAt: resp.RenewAt, Diagnostics: diags5(ds)}, nil
}

// CloseEphemeralResource closes an ephemeral resource with the SDK's Close.
func (s *Server5) CloseEphemeralResource(ctx context.Context, req *tfprotov5.CloseEphemeralResourceRequest) (*tfprotov5.CloseEphemeralResourceResponse, error) {
	return &tfprotov5.CloseEphemeralResourceResponse{Diagnostics: diags5(s.c.closeEphemeral(ctx, req.TypeName, req.Private))}, nil
}
