package pulumirpc

import (
	"strings"

	"github.com/plinth-iac/plinth/internal/schema"
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
	IsComponent     bool                    `json:"isComponent"`
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
func (s *packageSpec) toSchema() *schema.Schema {
	c := converter{types: s.Types, seen: map[string]bool{}}
	out := &schema.Schema{
		Name:      s.Name,
		Version:   s.Version,
		Config:    c.properties(s.Config.Variables, s.Config.Required),
		Resources: map[string]schema.ResourceSchema{},
		Functions: map[string]schema.FunctionSchema{},
	}
	for tok, r := range s.Resources {
		out.Resources[tok] = schema.ResourceSchema{
			Description: r.Description,
			IsComponent: r.IsComponent,
			Inputs:      c.properties(r.InputProperties, r.RequiredInputs),
			Outputs:     c.properties(r.Properties, r.Required),
		}
	}
	for tok, f := range s.Functions {
		fs := schema.FunctionSchema{Description: f.Description}
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

func (c converter) properties(props map[string]propertySpec, required []string) map[string]schema.Property {
	if len(props) == 0 {
		return nil
	}
	req := map[string]bool{}
	for _, r := range required {
		req[r] = true
	}
	out := make(map[string]schema.Property, len(props))
	for name, ps := range props {
		out[name] = schema.Property{
			Type:             c.typ(ps.typeSpec),
			Description:      ps.Description,
			Required:         req[name],
			Secret:           ps.Secret,
			ReplaceOnChanges: ps.ReplaceOnChanges || ps.WillReplaceOnChanges,
		}
	}
	return out
}

func (c converter) typ(t typeSpec) schema.Type {
	if t.Ref != "" {
		return c.ref(t.Ref)
	}
	switch t.Type {
	case "boolean":
		return schema.Type{Kind: schema.TypeBool}
	case "integer":
		return schema.Type{Kind: schema.TypeInteger}
	case "number":
		return schema.Type{Kind: schema.TypeNumber}
	case "string":
		return schema.Type{Kind: schema.TypeString}
	case "array":
		return schema.Type{Kind: schema.TypeArray, Elem: c.elem(t.Items)}
	case "object":
		return schema.Type{Kind: schema.TypeMap, Elem: c.elem(t.AdditionalProperties)}
	}
	if len(t.OneOf) == 1 {
		return c.typ(*t.OneOf[0])
	}
	return schema.Type{Kind: schema.TypeAny}
}

func (c converter) elem(t *typeSpec) *schema.Type {
	e := schema.Type{Kind: schema.TypeAny}
	if t != nil {
		e = c.typ(*t)
	}
	return &e
}

// ref resolves "#/types/<token>" and the built-in pulumi.json types.
func (c converter) ref(ref string) schema.Type {
	switch {
	case strings.HasSuffix(ref, "pulumi.json#/Asset"):
		return schema.Type{Kind: schema.TypeAsset}
	case strings.HasSuffix(ref, "pulumi.json#/Archive"):
		return schema.Type{Kind: schema.TypeArchive}
	}
	tok, ok := strings.CutPrefix(ref, "#/types/")
	def, found := c.types[tok]
	if !ok || !found || c.seen[tok] {
		return schema.Type{Kind: schema.TypeAny}
	}
	if len(def.Enum) > 0 || def.Type != "object" {
		return c.typ(def.typeSpec)
	}
	c.seen[tok] = true
	defer delete(c.seen, tok)
	return schema.Type{Kind: schema.TypeObject, Properties: c.properties(def.Properties, def.Required)}
}
