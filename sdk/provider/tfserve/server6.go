package tfserve

import (
	"context"
	"fmt"

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

func decodeError(what string, err error) diags {
	return diags{{summary: "Cannot decode " + what, detail: fmt.Sprintf("Terraform sent a value tfserve cannot read: %v.", err)}}
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
	return resp, nil
}

func block6(t *vtype, doc string) *tfprotov6.SchemaBlock {
	return &tfprotov6.SchemaBlock{Description: doc, Attributes: attributes6(t)}
}

func attributes6(t *vtype) []*tfprotov6.SchemaAttribute {
	out := make([]*tfprotov6.SchemaAttribute, 0, len(t.attrs))
	for _, a := range t.attrs {
		sa := &tfprotov6.SchemaAttribute{Name: a.tf, Description: a.doc, Required: a.required,
			Optional: a.optional, Computed: a.computed, Sensitive: a.sensitive}
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
	cfg, err := value6(req.Config, s.c.m.config.tftype())
	if err != nil {
		return &tfprotov6.ValidateProviderConfigResponse{Diagnostics: diags6(decodeError("the provider configuration", err))}, nil
	}
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config, Diagnostics: diags6(s.c.validateConfig(ctx, cfg))}, nil
}

// ConfigureProvider configures the provider.
func (s *Server6) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	cfg, err := value6(req.Config, s.c.m.config.tftype())
	if err != nil {
		return &tfprotov6.ConfigureProviderResponse{Diagnostics: diags6(decodeError("the provider configuration", err))}, nil
	}
	return &tfprotov6.ConfigureProviderResponse{Diagnostics: diags6(s.c.configure(ctx, cfg))}, nil
}

// StopProvider cancels work in flight.
func (s *Server6) StopProvider(ctx context.Context, _ *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{Error: s.c.stop(ctx)}, nil
}

// resourceType is the type of a resource's values; nil for an unknown
// type (the core reports it).
func (s *Server6) resourceType(name string) tftypes.Type {
	if r, ok := s.c.m.resources[name]; ok {
		return r.obj.tftype()
	}
	return tftypes.DynamicPseudoType
}

// ValidateResourceConfig checks a resource's configuration.
func (s *Server6) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	cfg, err := value6(req.Config, s.resourceType(req.TypeName))
	if err != nil {
		return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: diags6(decodeError("the configuration", err))}, nil
	}
	return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: diags6(s.c.validateResource(ctx, req.TypeName, cfg))}, nil
}

// UpgradeResourceState brings recorded state to the current schema.
func (s *Server6) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	if req.RawState == nil || req.RawState.JSON == nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: diags6(diags{{summary: "Cannot upgrade state",
			detail: "The state of " + req.TypeName + " is not JSON (flatmap state from Terraform 0.11 and older is not supported)."}})}, nil
	}
	decode := func(t tftypes.Type) (tftypes.Value, error) {
		return req.RawState.UnmarshalWithOpts(t, tfprotov6.UnmarshalOpts{ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true}})
	}
	v, ds := s.c.upgradeResource(ctx, req.TypeName, req.Version, req.RawState.JSON, decode)
	if ds.hasErrors() {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: diags6(ds)}, nil
	}
	dv, eds := dynamic6(s.resourceType(req.TypeName), v)
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: dv, Diagnostics: diags6(append(ds, eds...))}, nil
}

// ReadResource refreshes a resource; one that is gone reads as null.
func (s *Server6) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	t := s.resourceType(req.TypeName)
	cur, err := value6(req.CurrentState, t)
	if err != nil {
		return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, Private: req.Private, Diagnostics: diags6(decodeError("the state", err))}, nil
	}
	v, priv, ds := s.c.readResource(ctx, req.TypeName, cur, req.Private)
	dv, eds := dynamic6(t, v)
	return &tfprotov6.ReadResourceResponse{NewState: dv, Private: priv, Diagnostics: diags6(append(ds, eds...))}, nil
}

// PlanResourceChange plans a create, update, replacement or delete.
func (s *Server6) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	t := s.resourceType(req.TypeName)
	prior, err1 := value6(req.PriorState, t)
	proposed, err2 := value6(req.ProposedNewState, t)
	cfg, err3 := value6(req.Config, t)
	if err := firstError(err1, err2, err3); err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: diags6(decodeError("the plan request", err))}, nil
	}
	p, ds := s.c.planResource(ctx, req.TypeName, prior, proposed, cfg, req.PriorPrivate)
	if ds.hasErrors() {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: diags6(ds)}, nil
	}
	dv, eds := dynamic6(t, p.state)
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: dv, RequiresReplace: p.replace,
		PlannedPrivate: p.private, Diagnostics: diags6(append(ds, eds...))}, nil
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// ApplyResourceChange carries out a planned change.
func (s *Server6) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	t := s.resourceType(req.TypeName)
	prior, err1 := value6(req.PriorState, t)
	planned, err2 := value6(req.PlannedState, t)
	cfg, err3 := value6(req.Config, t)
	if err := firstError(err1, err2, err3); err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{NewState: req.PriorState, Diagnostics: diags6(decodeError("the apply request", err))}, nil
	}
	v, priv, ds := s.c.applyResource(ctx, req.TypeName, prior, planned, cfg, req.PlannedPrivate)
	dv, eds := dynamic6(t, v)
	return &tfprotov6.ApplyResourceChangeResponse{NewState: dv, Private: priv, Diagnostics: diags6(append(ds, eds...))}, nil
}

// ImportResourceState reads an existing object by its ID.
func (s *Server6) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	v, priv, ds := s.c.importResource(ctx, req.TypeName, req.ID)
	if ds.hasErrors() {
		return &tfprotov6.ImportResourceStateResponse{Diagnostics: diags6(ds)}, nil
	}
	dv, eds := dynamic6(s.resourceType(req.TypeName), v)
	return &tfprotov6.ImportResourceStateResponse{Diagnostics: diags6(append(ds, eds...)),
		ImportedResources: []*tfprotov6.ImportedResource{{TypeName: req.TypeName, State: dv, Private: priv}}}, nil
}

// MoveResourceState is not supported: SDK resources cannot move between
// types.
func (s *Server6) MoveResourceState(_ context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return &tfprotov6.MoveResourceStateResponse{Diagnostics: diags6(unsupported("Moving state into " + req.TargetTypeName))}, nil
}

func unsupported(what string) diags {
	return diags{{summary: "Unsupported operation", detail: what + " is not supported by providers served by plinth's SDK."}}
}

// UpgradeResourceIdentity is not supported: no resource has an identity.
func (s *Server6) UpgradeResourceIdentity(context.Context, *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return &tfprotov6.UpgradeResourceIdentityResponse{Diagnostics: diags6(unsupported("Resource identity"))}, nil
}

// GenerateResourceConfig is not supported.
func (s *Server6) GenerateResourceConfig(context.Context, *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return &tfprotov6.GenerateResourceConfigResponse{Diagnostics: diags6(unsupported("Generating configuration"))}, nil
}

func (s *Server6) dataType(name string) tftypes.Type {
	if f, ok := s.c.m.data[name]; ok {
		return f.dataObj.tftype()
	}
	return tftypes.DynamicPseudoType
}

// ValidateDataResourceConfig checks a data source's arguments.
func (s *Server6) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	cfg, err := value6(req.Config, s.dataType(req.TypeName))
	if err != nil {
		return &tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: diags6(decodeError("the configuration", err))}, nil
	}
	return &tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: diags6(s.c.validateData(ctx, req.TypeName, cfg))}, nil
}

// ReadDataSource calls the function behind a data source.
func (s *Server6) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	t := s.dataType(req.TypeName)
	cfg, err := value6(req.Config, t)
	if err != nil {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: diags6(decodeError("the configuration", err))}, nil
	}
	v, ds := s.c.readData(ctx, req.TypeName, cfg)
	if ds.hasErrors() {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: diags6(ds)}, nil
	}
	dv, eds := dynamic6(t, v)
	return &tfprotov6.ReadDataSourceResponse{State: dv, Diagnostics: diags6(append(ds, eds...))}, nil
}

// GetFunctions returns the provider-defined functions.
func (s *Server6) GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return &tfprotov6.GetFunctionsResponse{Functions: functions6(s.c.m)}, nil
}

// CallFunction calls a provider-defined function.
func (s *Server6) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	f, ok := s.c.m.functions[req.Name]
	if !ok {
		return &tfprotov6.CallFunctionResponse{Error: &tfprotov6.FunctionError{Text: fmt.Sprintf("provider %s has no function %q", s.c.m.name, req.Name)}}, nil
	}
	params := f.params()
	args := make([]tftypes.Value, len(req.Arguments))
	for i, dv := range req.Arguments {
		t := tftypes.Type(tftypes.DynamicPseudoType)
		if i < len(params) {
			t = params[i].t.tftype()
		}
		v, err := value6(dv, t)
		if err != nil {
			return &tfprotov6.CallFunctionResponse{Error: funcError6(&funcError{text: err.Error(), arg: i})}, nil
		}
		args[i] = v
	}
	v, ferr := s.c.callFunction(ctx, req.Name, args)
	if ferr != nil {
		return &tfprotov6.CallFunctionResponse{Error: funcError6(ferr)}, nil
	}
	dv, ds := dynamic6(f.result.tftype(), v)
	if ds != nil {
		return &tfprotov6.CallFunctionResponse{Error: &tfprotov6.FunctionError{Text: ds[0].detail}}, nil
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

// ValidateEphemeralResourceConfig: there are no ephemeral resources.
func (s *Server6) ValidateEphemeralResourceConfig(_ context.Context, req *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return &tfprotov6.ValidateEphemeralResourceConfigResponse{Diagnostics: diags6(unsupported("Ephemeral resource " + req.TypeName))}, nil
}

// OpenEphemeralResource: there are no ephemeral resources.
func (s *Server6) OpenEphemeralResource(_ context.Context, req *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return &tfprotov6.OpenEphemeralResourceResponse{Diagnostics: diags6(unsupported("Ephemeral resource " + req.TypeName))}, nil
}

// RenewEphemeralResource: there are no ephemeral resources.
func (s *Server6) RenewEphemeralResource(_ context.Context, req *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return &tfprotov6.RenewEphemeralResourceResponse{Diagnostics: diags6(unsupported("Ephemeral resource " + req.TypeName))}, nil
}

// CloseEphemeralResource: there are no ephemeral resources.
func (s *Server6) CloseEphemeralResource(_ context.Context, req *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return &tfprotov6.CloseEphemeralResourceResponse{Diagnostics: diags6(unsupported("Ephemeral resource " + req.TypeName))}, nil
}
