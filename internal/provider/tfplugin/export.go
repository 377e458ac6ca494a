package tfplugin

import (
	"strings"

	"github.com/zclconf/go-cty/cty"

	plschema "github.com/plinth-iac/plinth/internal/schema"
)

// TypeToken names a Terraform resource or data source type by the shared
// convention: X_Y becomes X:index:X_Y, the package being the part before
// the first underscore (random_pet is random:index:random_pet).
func TypeToken(name string) string {
	pkg := name
	if i := strings.Index(name, "_"); i > 0 {
		pkg = name[:i]
	}
	return pkg + ":index:" + name
}

// FunctionToken names a provider-defined function: <provider>:index:<name>
// (time's rfc3339_parse is time:index:rfc3339_parse).
func FunctionToken(providerName, name string) string {
	return providerName + ":index:" + name
}

// export translates the provider's schemas into plinth's schema model.
func (p *Provider) export() *plschema.Schema {
	s := &plschema.Schema{
		Name:      p.cfg.Name,
		Version:   p.cfg.Version,
		Config:    properties(p.schemas.provider.block, true),
		Resources: map[string]plschema.ResourceSchema{},
		Functions: map[string]plschema.FunctionSchema{},
	}
	for name, rs := range p.schemas.resources {
		s.Resources[TypeToken(name)] = plschema.ResourceSchema{
			Description: rs.block.description,
			Inputs:      properties(rs.block, true),
			Outputs:     properties(rs.block, false),
		}
	}
	for name, ds := range p.schemas.dataSources {
		s.Functions[TypeToken(name)] = plschema.FunctionSchema{
			Description: ds.block.description,
			Inputs:      properties(ds.block, true),
			Outputs:     properties(ds.block, false),
		}
	}
	for name, fn := range p.schemas.functions {
		s.Functions[FunctionToken(p.cfg.Name, name)] = exportFunction(fn)
	}
	return s
}

func exportFunction(fn *function) plschema.FunctionSchema {
	in := map[string]plschema.Property{}
	for _, prm := range fn.params {
		in[prm.name] = plschema.Property{Type: typeOf(prm.typ), Description: prm.description, Required: !prm.allowNull}
	}
	if v := fn.variadic; v != nil {
		in[v.name] = plschema.Property{Type: plschema.Type{Kind: plschema.TypeArray, Elem: ptr(typeOf(v.typ))}, Description: v.description}
	}
	desc := fn.description
	if desc == "" {
		desc = fn.summary
	}
	return plschema.FunctionSchema{
		Description: desc,
		Inputs:      in,
		Outputs:     map[string]plschema.Property{"result": {Type: typeOf(fn.returns)}},
	}
}

// properties lists a block's properties: the settable ones for inputs, all
// of them for outputs.
func properties(b *block, inputs bool) map[string]plschema.Property {
	out := map[string]plschema.Property{}
	for name, a := range b.attributes {
		if inputs && a.computedOnly() {
			continue
		}
		out[name] = attributeProperty(a, inputs)
	}
	for name, nb := range b.blocks {
		elem := plschema.Type{Kind: plschema.TypeObject, Properties: properties(nb.block, inputs)}
		out[name] = plschema.Property{
			Type:        wrap(nb.nesting, elem),
			Description: nb.block.description,
			Required:    inputs && nb.minItems > 0,
			Block:       true,
		}
	}
	return out
}

func attributeProperty(a *attribute, inputs bool) plschema.Property {
	t := typeOf(a.typ)
	if a.nested != nil {
		elem := plschema.Type{Kind: plschema.TypeObject, Properties: properties(&block{attributes: a.nested.attributes}, inputs), Nested: true}
		t = wrap(a.nested.nesting, elem)
	}
	return plschema.Property{
		Type:        t,
		Description: a.description,
		Required:    inputs && a.required,
		Secret:      a.sensitive,
		Computed:    inputs && a.optional && a.computed,
	}
}

func wrap(n nesting, elem plschema.Type) plschema.Type {
	switch n {
	case nestingList:
		return plschema.Type{Kind: plschema.TypeArray, Elem: ptr(elem)}
	case nestingSet:
		return plschema.Type{Kind: plschema.TypeArray, Elem: ptr(elem), Set: true}
	case nestingMap:
		return plschema.Type{Kind: plschema.TypeMap, Elem: ptr(elem)}
	}
	return elem
}

func ptr(t plschema.Type) *plschema.Type { return &t }

// typeOf translates a cty type.
func typeOf(ty cty.Type) plschema.Type {
	switch {
	case ty == cty.Bool:
		return plschema.Type{Kind: plschema.TypeBool}
	case ty == cty.Number:
		return plschema.Type{Kind: plschema.TypeNumber}
	case ty == cty.String:
		return plschema.Type{Kind: plschema.TypeString}
	case ty.IsListType():
		return plschema.Type{Kind: plschema.TypeArray, Elem: ptr(typeOf(ty.ElementType()))}
	case ty.IsSetType():
		return plschema.Type{Kind: plschema.TypeArray, Elem: ptr(typeOf(ty.ElementType())), Set: true}
	case ty.IsMapType():
		return plschema.Type{Kind: plschema.TypeMap, Elem: ptr(typeOf(ty.ElementType()))}
	case ty.IsTupleType():
		return plschema.Type{Kind: plschema.TypeArray, Elem: &plschema.Type{Kind: plschema.TypeAny}}
	case ty.IsObjectType():
		props := map[string]plschema.Property{}
		for name, aty := range ty.AttributeTypes() {
			props[name] = plschema.Property{Type: typeOf(aty)}
		}
		return plschema.Type{Kind: plschema.TypeObject, Properties: props}
	}
	return plschema.Type{Kind: plschema.TypeAny}
}
