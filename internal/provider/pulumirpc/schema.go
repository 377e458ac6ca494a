package pulumirpc

import (
	"strings"

	"github.com/plinth-iac/plinth/internal/provider"
)

// packageSpec is the part of a Pulumi package schema plinth reads.
type packageSpec struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Config  struct {
		Variables map[string]propertySpec `json:"variables"`
		Required  []string                `json:"required"`
	} `json:"config"`
	Resources map[string]resourceSpec `json:"resources"`
	Functions map[string]functionSpec `json:"functions"`
	Types     map[string]typeDef      `json:"types"`
}

type resourceSpec struct {
	Description     string                  `json:"description"`
	Properties      map[string]propertySpec `json:"properties"`
	Required        []string                `json:"required"`
	InputProperties map[string]propertySpec `json:"inputProperties"`
	RequiredInputs  []string                `json:"requiredInputs"`
}

type objectSpec struct {
	Properties map[string]propertySpec `json:"properties"`
	Required   []string                `json:"required"`
}

type functionSpec struct {
	Description string      `json:"description"`
	Inputs      *objectSpec `json:"inputs"`
	Outputs     *objectSpec `json:"outputs"`
}

type typeDef struct {
	typeSpec
	Properties map[string]propertySpec `json:"properties"`
	Required   []string                `json:"required"`
	Enum       []any                   `json:"enum"`
}

type typeSpec struct {
	Type                 string      `json:"type"`
	Ref                  string      `json:"$ref"`
	Items                *typeSpec   `json:"items"`
	AdditionalProperties *typeSpec   `json:"additionalProperties"`
	OneOf                []*typeSpec `json:"oneOf"`
}

type propertySpec struct {
	typeSpec
	Description          string `json:"description"`
	Secret               bool   `json:"secret"`
	ReplaceOnChanges     bool   `json:"replaceOnChanges"`
	WillReplaceOnChanges bool   `json:"willReplaceOnChanges"`
	DeprecationMessage   string `json:"deprecationMessage"`
	Default              any    `json:"default"`
}

// toSchema converts the package schema into plinth's schema model. Object
// types are inlined (a type that refers to itself stops at "any"); enums
// become their underlying type.
func (s *packageSpec) toSchema() *provider.Schema {
	c := converter{types: s.Types, seen: map[string]bool{}}
	out := &provider.Schema{
		Name:      s.Name,
		Version:   s.Version,
		Config:    c.properties(s.Config.Variables, s.Config.Required),
		Resources: map[string]provider.ResourceSchema{},
		Functions: map[string]provider.FunctionSchema{},
	}
	for tok, r := range s.Resources {
		out.Resources[tok] = provider.ResourceSchema{
			Description: r.Description,
			Inputs:      c.properties(r.InputProperties, r.RequiredInputs),
			Outputs:     c.properties(r.Properties, r.Required),
		}
	}
	for tok, f := range s.Functions {
		fs := provider.FunctionSchema{Description: f.Description}
		if f.Inputs != nil {
			fs.Inputs = c.properties(f.Inputs.Properties, f.Inputs.Required)
		}
		if f.Outputs != nil {
			fs.Outputs = c.properties(f.Outputs.Properties, f.Outputs.Required)
		}
		out.Functions[tok] = fs
	}
	return out
}

type converter struct {
	types map[string]typeDef
	seen  map[string]bool // object types being inlined, against cycles
}

func (c converter) properties(props map[string]propertySpec, required []string) map[string]provider.Property {
	if len(props) == 0 {
		return nil
	}
	req := map[string]bool{}
	for _, r := range required {
		req[r] = true
	}
	out := make(map[string]provider.Property, len(props))
	for name, ps := range props {
		out[name] = provider.Property{
			Type:             c.typ(ps.typeSpec),
			Description:      ps.Description,
			Required:         req[name],
			Secret:           ps.Secret,
			ReplaceOnChanges: ps.ReplaceOnChanges || ps.WillReplaceOnChanges,
		}
	}
	return out
}

func (c converter) typ(t typeSpec) provider.Type {
	if t.Ref != "" {
		return c.ref(t.Ref)
	}
	switch t.Type {
	case "boolean":
		return provider.Type{Kind: provider.TypeBool}
	case "integer":
		return provider.Type{Kind: provider.TypeInteger}
	case "number":
		return provider.Type{Kind: provider.TypeNumber}
	case "string":
		return provider.Type{Kind: provider.TypeString}
	case "array":
		return provider.Type{Kind: provider.TypeArray, Elem: c.elem(t.Items)}
	case "object":
		return provider.Type{Kind: provider.TypeMap, Elem: c.elem(t.AdditionalProperties)}
	}
	if len(t.OneOf) == 1 {
		return c.typ(*t.OneOf[0])
	}
	return provider.Type{Kind: provider.TypeAny}
}

func (c converter) elem(t *typeSpec) *provider.Type {
	e := provider.Type{Kind: provider.TypeAny}
	if t != nil {
		e = c.typ(*t)
	}
	return &e
}

// ref resolves "#/types/<token>" and the built-in pulumi.json types.
func (c converter) ref(ref string) provider.Type {
	switch {
	case strings.HasSuffix(ref, "pulumi.json#/Asset"):
		return provider.Type{Kind: provider.TypeAsset}
	case strings.HasSuffix(ref, "pulumi.json#/Archive"):
		return provider.Type{Kind: provider.TypeArchive}
	}
	tok, ok := strings.CutPrefix(ref, "#/types/")
	def, found := c.types[tok]
	if !ok || !found || c.seen[tok] {
		return provider.Type{Kind: provider.TypeAny}
	}
	if len(def.Enum) > 0 || def.Type != "object" {
		return c.typ(def.typeSpec)
	}
	c.seen[tok] = true
	defer delete(c.seen, tok)
	return provider.Type{Kind: provider.TypeObject, Properties: c.properties(def.Properties, def.Required)}
}
