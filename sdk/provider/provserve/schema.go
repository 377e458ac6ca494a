package provserve

import (
	"encoding/json"
	"math/big"
	"sort"

	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
	"github.com/plinth-iac/plinth/sdk/tfplugin5"
)

// ctyType is a property type's Terraform type; objects and anything
// untyped are dynamic.
func ctyType(t provider.Type) cty.Type {
	switch t.Kind {
	case provider.TypeBool:
		return cty.Bool
	case provider.TypeInteger, provider.TypeNumber:
		return cty.Number
	case provider.TypeString:
		return cty.String
	case provider.TypeArray:
		if t.Elem != nil {
			return cty.List(ctyType(*t.Elem))
		}
	case provider.TypeMap:
		if t.Elem != nil {
			return cty.Map(ctyType(*t.Elem))
		}
	}
	return cty.DynamicPseudoType
}

// configType is the object type of a provisioner's configuration.
func configType(props map[string]provider.Property) cty.Type {
	attrs := map[string]cty.Type{}
	for name, p := range props {
		attrs[name] = ctyType(p.Type)
	}
	return cty.Object(attrs)
}

// schemaOf is a provisioner's schema on the wire.
func schemaOf(p provider.Provisioner) (*tfplugin5.Schema, error) {
	b := &tfplugin5.Schema_Block{Description: p.Description}
	names := make([]string, 0, len(p.Config))
	for n := range p.Config {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		prop := p.Config[n]
		ty, err := json.Marshal(ctyType(prop.Type))
		if err != nil {
			return nil, err
		}
		b.Attributes = append(b.Attributes, &tfplugin5.Schema_Attribute{
			Name: n, Type: ty, Description: prop.Description,
			Required: prop.Required, Optional: !prop.Required, Sensitive: prop.Secret,
		})
	}
	return &tfplugin5.Schema{Block: b}, nil
}

// fromCty turns a value into the SDK's; null attributes are left out of
// objects. An unknown stays unknown: at validation a value that depends on
// a resource not yet created (message = "from ${self.id}") is set, not
// missing.
func fromCty(v cty.Value) resource.Value {
	switch {
	case !v.IsKnown():
		return resource.Unknown()
	case v.IsNull():
		return resource.Null()
	case v.Type() == cty.String:
		return resource.NewString(v.AsString())
	case v.Type() == cty.Bool:
		return resource.NewBool(v.True())
	case v.Type() == cty.Number:
		f, _ := new(big.Float).Set(v.AsBigFloat()).Float64()
		return resource.NewNumber(f)
	case v.Type().IsObjectType() || v.Type().IsMapType():
		return resource.NewObject(objectFromCty(v))
	case v.CanIterateElements():
		var elems []resource.Value
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			elems = append(elems, fromCty(e))
		}
		return resource.NewArray(elems...)
	}
	return resource.Value{}
}

func objectFromCty(v cty.Value) resource.Object {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	o := resource.Object{}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if !e.IsNull() {
			o[k.AsString()] = fromCty(e)
		}
	}
	return o
}
