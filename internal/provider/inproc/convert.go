package inproc

import (
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/schema"
	sdk "github.com/plinth-iac/plinth/sdk/provider"
)

func toCheckRequest(req provider.CheckRequest) sdk.CheckRequest {
	return sdk.CheckRequest{URN: req.URN, Olds: req.Olds, News: req.News, RandomSeed: req.RandomSeed}
}

func fromCheckResponse(resp sdk.CheckResponse) provider.CheckResponse {
	return provider.CheckResponse{Inputs: resp.Inputs, Failures: fromFailures(resp.Failures)}
}

func fromFailures(fs []sdk.CheckFailure) []provider.CheckFailure {
	if fs == nil {
		return nil
	}
	out := make([]provider.CheckFailure, len(fs))
	for i, f := range fs {
		out[i] = provider.CheckFailure{Property: f.Property, Reason: f.Reason}
	}
	return out
}

func toDiffRequest(req provider.DiffRequest) sdk.DiffRequest {
	return sdk.DiffRequest{URN: req.URN, ID: req.ID, OldInputs: req.OldInputs, OldOutputs: givePrivate(req.OldOutputs, req.Private),
		News: req.News, IgnoreChanges: req.IgnoreChanges}
}

func fromDiffResponse(resp sdk.DiffResponse) provider.DiffResponse {
	return provider.DiffResponse{
		Changes:             fromChanges(resp.Changes),
		ReplaceKeys:         resp.ReplaceKeys,
		StableKeys:          resp.StableKeys,
		ChangedKeys:         resp.ChangedKeys,
		DetailedDiff:        resp.DetailedDiff,
		DeleteBeforeReplace: resp.DeleteBeforeReplace,
	}
}

func fromChanges(c sdk.DiffChanges) provider.DiffChanges {
	switch c {
	case sdk.DiffNone:
		return provider.DiffNone
	case sdk.DiffSome:
		return provider.DiffSome
	}
	return provider.DiffUnknown
}

// toSchema converts the SDK's schema into the engine's, which keeps what the
// engine uses: property types, descriptions and flags. Defaults, package
// metadata and type tokens stay in the SDK schema (they matter to schema
// generation, not to the engine).
func toSchema(s sdk.Schema) *schema.Schema {
	out := &schema.Schema{
		Name:      s.Name,
		Version:   s.Version,
		Config:    toProperties(s.Config),
		Resources: make(map[string]schema.ResourceSchema, len(s.Resources)),
		Functions: make(map[string]schema.FunctionSchema, len(s.Functions)),
	}
	for t, r := range s.Resources {
		out.Resources[t] = schema.ResourceSchema{Description: r.Description,
			Inputs: toProperties(r.Inputs), Outputs: toProperties(r.Outputs), IsComponent: r.IsComponent}
	}
	for t, f := range s.Functions {
		out.Functions[t] = schema.FunctionSchema{Description: f.Description,
			Inputs: toProperties(f.Inputs), Outputs: toProperties(f.Outputs)}
	}
	return out
}

func toProperties(props map[string]sdk.Property) map[string]schema.Property {
	if props == nil {
		return nil
	}
	out := make(map[string]schema.Property, len(props))
	for n, p := range props {
		out[n] = schema.Property{
			Type:             toType(p.Type),
			Description:      p.Description,
			Required:         p.Required,
			Secret:           p.Secret,
			ReplaceOnChanges: p.ReplaceOnChanges,
			Computed:         p.Computed,
		}
	}
	return out
}

func toType(t sdk.Type) schema.Type {
	out := schema.Type{Kind: schema.TypeKind(t.Kind), Properties: toProperties(t.Properties)}
	if t.Elem != nil {
		e := toType(*t.Elem)
		out.Elem = &e
	}
	return out
}
