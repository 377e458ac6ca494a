package hcl

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// typedObject is objectToCty for a resource's or data source's value,
// with each attribute whose schema type is a list or a map of a primitive
// converted to that type, as terraform types the value by its schema:
// random_id's keepers is a map(string) and tls_self_signed_cert's
// dns_names a list(string), not an object and a tuple. So an output of
// one has terraform's type, which the state records for an export. An
// attribute of another schema type (plinth's schemas do not tell a set
// from a list, nor keep nested blocks' types), or whose value does not
// convert, keeps its natural type.
func typedObject(o resource.Object, props map[string]schema.Property) cty.Value {
	attrs := make(map[string]cty.Value, len(o))
	for k, e := range o {
		attrs[k] = typedAttr(toCty(e), props[k].Type)
	}
	return cty.ObjectVal(attrs)
}

// typedAttr converts v to the list or map type t, if it is one and v
// converts.
func typedAttr(v cty.Value, t schema.Type) cty.Value {
	if t.Kind != schema.TypeArray && t.Kind != schema.TypeMap {
		return v
	}
	ty, ok := ctyType(t)
	if !ok {
		return v
	}
	c, err := convert.Convert(v, ty)
	if err != nil {
		return v
	}
	return c
}
