package schema

import "sort"

// Schema describes a provider package: its configuration, resource types and
// functions. Adapters translate their protocol's schema into it; the program
// evaluator uses it to check types and property names, and the display to
// know which outputs are secret.
type Schema struct {
	Name      string
	Version   string
	Config    map[string]Property
	Resources map[string]ResourceSchema // by type token
	Functions map[string]FunctionSchema // by function token
}

// ResourceTypes returns the resource type tokens in sorted order.
func (s *Schema) ResourceTypes() []string {
	if s == nil {
		return nil
	}
	types := make([]string, 0, len(s.Resources))
	for t := range s.Resources {
		types = append(types, t)
	}
	sort.Strings(types)
	return types
}

// ResourceSchema describes one resource type. Inputs are what a program
// sets; Outputs are what the provider reports (usually including the inputs).
type ResourceSchema struct {
	Description string
	// IsComponent marks a component resource the provider builds itself
	// (Construct), registering its children with the engine.
	IsComponent bool
	Inputs      map[string]Property
	Outputs     map[string]Property
}

// FunctionSchema describes a provider function.
type FunctionSchema struct {
	Description string
	Inputs      map[string]Property
	Outputs     map[string]Property
}

// Property describes one property.
type Property struct {
	Type             Type
	Description      string
	Required         bool
	Secret           bool
	ReplaceOnChanges bool
	// Computed is set for an input the provider fills in when the program
	// leaves it out.
	Computed bool
	// Block marks a Terraform nested block (written `name { ... }` in a
	// configuration and shown so in a plan) rather than an attribute; its
	// Type is an object, or an array or map of objects.
	Block bool
}

// TypeKind is the kind of a property's type.
type TypeKind string

// The property type kinds, as in a Pulumi package schema.
const (
	TypeAny     TypeKind = "any"
	TypeBool    TypeKind = "boolean"
	TypeInteger TypeKind = "integer"
	TypeNumber  TypeKind = "number"
	TypeString  TypeKind = "string"
	TypeArray   TypeKind = "array"
	TypeMap     TypeKind = "map"
	TypeObject  TypeKind = "object"
	TypeAsset   TypeKind = "asset"
	TypeArchive TypeKind = "archive"
)

// Type is a property's type: Elem for arrays and maps, Properties for
// objects with known properties.
type Type struct {
	Kind       TypeKind
	Elem       *Type
	Properties map[string]Property
	// Set marks an array whose elements are unordered and unique (a
	// Terraform set): a plan shows its changes by element, not by index.
	Set bool
	// Nested marks an object of nested attributes (Terraform protocol
	// 6), whose attributes a plan shows as a block's, rather than a value
	// of an object type.
	Nested bool
}
