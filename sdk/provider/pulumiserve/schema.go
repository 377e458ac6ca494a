package pulumiserve

import (
	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Spec is a Pulumi package schema document, the parts plinth writes.
type Spec struct {
	Name        string                  `json:"name"`
	Version     string                  `json:"version,omitempty"`
	DisplayName string                  `json:"displayName,omitempty"`
	Description string                  `json:"description,omitempty"`
	Homepage    string                  `json:"homepage,omitempty"`
	Repository  string                  `json:"repository,omitempty"`
	License     string                  `json:"license,omitempty"`
	Publisher   string                  `json:"publisher,omitempty"`
	Keywords    []string                `json:"keywords,omitempty"`
	Config      ConfigSpec              `json:"config"`
	Provider    ResourceSpec            `json:"provider"`
	Resources   map[string]ResourceSpec `json:"resources"`
	Functions   map[string]FunctionSpec `json:"functions"`
	Types       map[string]TypeDefSpec  `json:"types"`
}

// ConfigSpec is the package's configuration.
type ConfigSpec struct {
	Variables map[string]PropertySpec `json:"variables,omitempty"`
	Required  []string                `json:"required,omitempty"`
}

// ResourceSpec describes a resource (or the provider resource).
type ResourceSpec struct {
	Description     string                  `json:"description,omitempty"`
	Properties      map[string]PropertySpec `json:"properties,omitempty"`
	Required        []string                `json:"required,omitempty"`
	InputProperties map[string]PropertySpec `json:"inputProperties,omitempty"`
	RequiredInputs  []string                `json:"requiredInputs,omitempty"`
	IsComponent     bool                    `json:"isComponent,omitempty"`
	// Methods maps a component's method names to their function tokens.
	Methods map[string]string `json:"methods,omitempty"`
}

// FunctionSpec describes a function.
type FunctionSpec struct {
	Description string      `json:"description,omitempty"`
	Inputs      *ObjectSpec `json:"inputs,omitempty"`
	Outputs     *ObjectSpec `json:"outputs,omitempty"`
}

// ObjectSpec is an object's properties.
type ObjectSpec struct {
	Properties map[string]PropertySpec `json:"properties,omitempty"`
	Required   []string                `json:"required,omitempty"`
}

// TypeDefSpec is a named object type.
type TypeDefSpec struct {
	Type        string                  `json:"type"`
	Description string                  `json:"description,omitempty"`
	Properties  map[string]PropertySpec `json:"properties,omitempty"`
	Required    []string                `json:"required,omitempty"`
}

// TypeSpec is a property's type.
type TypeSpec struct {
	Type                 string    `json:"type,omitempty"`
	Ref                  string    `json:"$ref,omitempty"`
	Items                *TypeSpec `json:"items,omitempty"`
	AdditionalProperties *TypeSpec `json:"additionalProperties,omitempty"`
}

// PropertySpec is a property: its type and how it behaves.
type PropertySpec struct {
	TypeSpec
	Description      string `json:"description,omitempty"`
	Secret           bool   `json:"secret,omitempty"`
	ReplaceOnChanges bool   `json:"replaceOnChanges,omitempty"`
	Default          any    `json:"default,omitempty"`
	// DeprecationMessage, when set, makes the property deprecated.
	DeprecationMessage string `json:"deprecationMessage,omitempty"`
}

// PackageSchema converts an SDK schema into a Pulumi package schema.
// Object types with a token become named types; an object type without one
// is written as a map of any, the closest a schema can say inline.
func PackageSchema(s provider.Schema) Spec {
	out := Spec{
		Name: s.Name, Version: s.Version, DisplayName: s.DisplayName, Description: s.Description,
		Homepage: s.Homepage, Repository: s.Repository, License: s.License, Publisher: s.Publisher, Keywords: s.Keywords,
		Config:    ConfigSpec{Variables: properties(s.Config), Required: provider.RequiredNames(s.Config)},
		Provider:  ResourceSpec{InputProperties: properties(s.Config), RequiredInputs: provider.RequiredNames(s.Config)},
		Resources: map[string]ResourceSpec{},
		Functions: map[string]FunctionSpec{},
		Types:     map[string]TypeDefSpec{},
	}
	for tok, r := range s.Resources {
		out.Resources[tok] = ResourceSpec{
			Description: r.Description,
			Properties:  properties(r.Outputs), Required: provider.RequiredNames(r.Outputs),
			InputProperties: properties(r.Inputs), RequiredInputs: provider.RequiredNames(r.Inputs),
			IsComponent: r.IsComponent, Methods: methods(out.Functions, tok, r.Methods),
		}
	}
	for tok, f := range s.Functions {
		out.Functions[tok] = FunctionSpec{Description: f.Description,
			Inputs:  &ObjectSpec{Properties: properties(f.Inputs), Required: provider.RequiredNames(f.Inputs)},
			Outputs: &ObjectSpec{Properties: properties(f.Outputs), Required: provider.RequiredNames(f.Outputs)},
		}
	}
	for tok, t := range s.Types {
		out.Types[tok] = TypeDefSpec{Type: "object", Description: t.Description,
			Properties: properties(t.Properties), Required: provider.RequiredNames(t.Properties)}
	}
	return out
}

// methods lists a component's methods as Pulumi's schema does: a map from
// name to token on the resource, and a function per method whose input
// __self__ is the component (arguments and result are not typed).
func methods(fns map[string]FunctionSpec, typ string, ms map[string]provider.MethodSchema) map[string]string {
	if len(ms) == 0 {
		return nil
	}
	out := make(map[string]string, len(ms))
	for name, m := range ms {
		out[name] = m.Token
		fns[m.Token] = FunctionSpec{Description: m.Description, Inputs: &ObjectSpec{
			Properties: map[string]PropertySpec{"__self__": {TypeSpec: TypeSpec{Ref: "#/resources/" + typ}}},
			Required:   []string{"__self__"},
		}}
	}
	return out
}

func properties(props map[string]provider.Property) map[string]PropertySpec {
	if len(props) == 0 {
		return nil
	}
	out := make(map[string]PropertySpec, len(props))
	for name, p := range props {
		out[name] = PropertySpec{
			TypeSpec:           typeSpec(p.Type),
			Description:        p.Description,
			Secret:             p.Secret || p.WriteOnly,
			ReplaceOnChanges:   p.ReplaceOnChanges,
			Default:            defaultValue(p.Default),
			DeprecationMessage: p.Deprecated,
		}
	}
	return out
}

func typeSpec(t provider.Type) TypeSpec {
	switch t.Kind {
	case provider.TypeBool, provider.TypeInteger, provider.TypeNumber, provider.TypeString:
		return TypeSpec{Type: string(t.Kind)}
	case provider.TypeArray:
		return TypeSpec{Type: "array", Items: elemSpec(t.Elem)}
	case provider.TypeMap:
		return TypeSpec{Type: "object", AdditionalProperties: elemSpec(t.Elem)}
	case provider.TypeObject:
		if t.Token != "" {
			return TypeSpec{Ref: "#/types/" + t.Token}
		}
		return TypeSpec{Type: "object", AdditionalProperties: &TypeSpec{Ref: "pulumi.json#/Any"}}
	case provider.TypeAsset:
		return TypeSpec{Ref: "pulumi.json#/Asset"}
	case provider.TypeArchive:
		return TypeSpec{Ref: "pulumi.json#/Archive"}
	}
	return TypeSpec{Ref: "pulumi.json#/Any"}
}

func elemSpec(t *provider.Type) *TypeSpec {
	if t == nil {
		return &TypeSpec{Ref: "pulumi.json#/Any"}
	}
	e := typeSpec(*t)
	return &e
}

// defaultValue gives a schema default: the metaschema allows only
// booleans, numbers and strings.
func defaultValue(v resource.Value) any {
	switch v.Kind() {
	case resource.BoolKind:
		return v.Bool()
	case resource.NumberKind:
		return v.Number()
	case resource.StringKind:
		return v.Str()
	}
	return nil
}
