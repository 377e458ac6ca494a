package tfplugin

import (
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/provider"
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
func (p *Provider) export() *provider.Schema {
	s := &provider.Schema{
		Name:      p.cfg.Name,
		Version:   p.cfg.Version,
		Config:    properties(p.schemas.provider.block, true),
		Resources: map[string]provider.ResourceSchema{},
		Functions: map[string]provider.FunctionSchema{},
	}
	for name, rs := range p.schemas.resources {
		s.Resources[TypeToken(name)] = provider.ResourceSchema{
			Description: rs.block.description,
			Inputs:      properties(rs.block, true),
			Outputs:     properties(rs.block, false),
		}
	}
	for name, ds := range p.schemas.dataSources {
		s.Functions[TypeToken(name)] = provider.FunctionSchema{
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

func exportFunction(fn *function) provider.FunctionSchema {
	in := map[string]provider.Property{}
	for _, prm := range fn.params {
		in[prm.name] = provider.Property{Type: typeOf(prm.typ), Description: prm.description, Required: !prm.allowNull}
	}
	if v := fn.variadic; v != nil {
		in[v.name] = provider.Property{Type: provider.Type{Kind: provider.TypeArray, Elem: ptr(typeOf(v.typ))}, Description: v.description}
	}
	desc := fn.description
	if desc == "" {
		desc = fn.summary
	}
	return provider.FunctionSchema{
		Description: desc,
		Inputs:      in,
		Outputs:     map[string]provider.Property{"result": {Type: typeOf(fn.returns)}},
	}
}

// properties lists a block's properties: the settable ones for inputs, all
// of them for outputs.
func properties(b *block, inputs bool) map[string]provider.Property {
	out := map[string]provider.Property{}
	for name, a := range b.attributes {
		if inputs && a.computedOnly() {
			continue
		}
		out[name] = attributeProperty(a, inputs)
	}
	for name, nb := range b.blocks {
		elem := provider.Type{Kind: provider.TypeObject, Properties: properties(nb.block, inputs)}
		out[name] = provider.Property{
			Type:        wrap(nb.nesting, elem),
			Description: nb.block.description,
			Required:    inputs && nb.minItems > 0,
		}
	}
	return out
}

func attributeProperty(a *attribute, inputs bool) provider.Property {
	t := typeOf(a.typ)
	if a.nested != nil {
		elem := provider.Type{Kind: provider.TypeObject, Properties: properties(&block{attributes: a.nested.attributes}, inputs)}
		t = wrap(a.nested.nesting, elem)
	}
	return provider.Property{
		Type:        t,
		Description: a.description,
		Required:    inputs && a.required,
		Secret:      a.sensitive,
		Computed:    inputs && a.optional && a.computed,
	}
}

func wrap(n nesting, elem provider.Type) provider.Type {
	switch n {
	case nestingList, nestingSet:
		return provider.Type{Kind: provider.TypeArray, Elem: ptr(elem)}
	case nestingMap:
		return provider.Type{Kind: provider.TypeMap, Elem: ptr(elem)}
	}
	return elem
}

func ptr(t provider.Type) *provider.Type { return &t }

// typeOf translates a cty type.
func typeOf(ty cty.Type) provider.Type {
	switch {
	case ty == cty.Bool:
		return provider.Type{Kind: provider.TypeBool}
	case ty == cty.Number:
		return provider.Type{Kind: provider.TypeNumber}
	case ty == cty.String:
		return provider.Type{Kind: provider.TypeString}
	case ty.IsListType(), ty.IsSetType():
		return provider.Type{Kind: provider.TypeArray, Elem: ptr(typeOf(ty.ElementType()))}
	case ty.IsMapType():
		return provider.Type{Kind: provider.TypeMap, Elem: ptr(typeOf(ty.ElementType()))}
	case ty.IsTupleType():
		return provider.Type{Kind: provider.TypeArray, Elem: &provider.Type{Kind: provider.TypeAny}}
	case ty.IsObjectType():
		props := map[string]provider.Property{}
		for name, aty := range ty.AttributeTypes() {
			props[name] = provider.Property{Type: typeOf(aty)}
		}
		return provider.Type{Kind: provider.TypeObject, Properties: props}
	}
	return provider.Type{Kind: provider.TypeAny}
}
