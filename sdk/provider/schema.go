package provider

import (
	"sort"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Schema describes a provider package: its metadata, configuration,
// resource types, functions and named object types. It holds what a Pulumi
// package schema needs (types, descriptions, required, secret,
// replaceOnChanges, defaults, config, functions) without being tied to its
// JSON form.
type Schema struct {
	Name        string
	Version     string
	DisplayName string
	Description string
	Homepage    string
	Repository  string
	License     string
	Publisher   string
	Keywords    []string

	// Config holds the provider's configuration properties.
	Config map[string]Property
	// Resources are keyed by type token (package:module:Type).
	Resources map[string]ResourceSchema
	// Functions are keyed by function token (package:module:name).
	Functions map[string]FunctionSchema
	// Types holds the named object types that properties refer to by
	// Type.Token, keyed by that token.
	Types map[string]ObjectType
}

// ResourceTypes returns the resource type tokens in sorted order.
func (s Schema) ResourceTypes() []string { return sortedKeys(s.Resources) }

// FunctionTokens returns the function tokens in sorted order.
func (s Schema) FunctionTokens() []string { return sortedKeys(s.Functions) }

// ResourceSchema describes one resource type. Inputs are what a program
// sets; Outputs are what the provider reports, usually including the inputs.
type ResourceSchema struct {
	Description string
	Inputs      map[string]Property
	Outputs     map[string]Property
	// Version is the schema version of the state (0 unless the resource
	// type implements StateUpgrader).
	Version int64
	// IsComponent marks a component the provider builds with Construct
	// (see WithComponent); it has no Create, Read, Update or Delete.
	IsComponent bool
	// Methods are a component's methods (see WithMethod), by name.
	Methods map[string]MethodSchema
}

// MethodSchema describes a method of a component: its token (TYPE/name)
// and documentation. Its arguments and result are not typed.
type MethodSchema struct {
	Token       string
	Description string
}

// FunctionSchema describes a provider function.
type FunctionSchema struct {
	Description string
	Inputs      map[string]Property
	Outputs     map[string]Property
}

// ObjectType is a named object type.
type ObjectType struct {
	Description string
	Properties  map[string]Property
}

// Property describes one property of a resource, function, configuration or
// object type.
type Property struct {
	Type        Type
	Description string
	// Required: an input the program must set, or an output always present.
	Required bool
	// Secret: the value is always a secret.
	Secret bool
	// ReplaceOnChanges: a change to this input replaces the resource.
	ReplaceOnChanges bool
	// Computed: an input the provider fills in when the program leaves it
	// out, or an output the provider computes.
	Computed bool
	// Default is the value Check applies when the input is missing; null
	// when there is none.
	Default resource.Value
	// Deprecated, when set, says why the property should no longer be used
	// and what to use instead.
	Deprecated string
	// WriteOnly: an input passed to Create and Update but never recorded
	// in Terraform's state nor returned as an output (a password sent once).
	WriteOnly bool
	// Stable: an output an update leaves as it was, so a preview of an
	// update shows its recorded value instead of an unknown.
	Stable bool
	// Set: an array of strings, numbers, booleans or objects whose order
	// does not matter and whose elements are distinct (a Terraform set;
	// a set block or set nested attribute for objects). Check refuses
	// duplicates, fills in the elements' defaults and sorts it (objects by
	// their properties in name order), and Diff compares the recorded
	// value in that order too, so a new order is no change.
	Set bool
	// Block: a nested object (or list or map of them) that Terraform
	// writes as a nested block in protocol 6 too (protocol 5 always
	// does): timeouts { create = "1m" } rather than timeouts = {...}.
	// Timeouts properties are blocks.
	Block bool
	// Variadic: a function argument (an array) that Terraform passes as
	// the function's trailing arguments, any number of them.
	Variadic bool
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

// Type is a property's type. Elem is set for arrays and maps (map keys are
// strings). An object type has a Token naming it in Schema.Types and also
// carries its Properties, so a reader need not look it up.
type Type struct {
	Kind       TypeKind
	Elem       *Type
	Token      string
	Properties map[string]Property
}

// String renders the type as a short expression such as "map<array<string>>".
func (t Type) String() string {
	switch t.Kind {
	case TypeArray, TypeMap:
		if t.Elem != nil {
			return string(t.Kind) + "<" + t.Elem.String() + ">"
		}
	case TypeObject:
		if t.Token != "" {
			return t.Token
		}
	}
	return string(t.Kind)
}

// RequiredNames returns the names of the required properties in sorted
// order, as a Pulumi schema's "required" lists them.
func RequiredNames(props map[string]Property) []string {
	var names []string
	for _, n := range sortedKeys(props) {
		if props[n].Required {
			names = append(names, n)
		}
	}
	return names
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
