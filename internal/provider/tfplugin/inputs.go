package tfplugin

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// configBuilder turns plinth inputs into a Terraform configuration value by
// a block's schema, collecting a failure per property that does not fit.
// Strict builders (for Check) also refuse what Terraform would: values for
// attributes only the provider sets, missing required attributes, and block
// counts outside their limits. Lenient ones drop provider-set attributes,
// so stored inputs that carry them still plan.
type configBuilder struct {
	strict   bool
	ignore   map[string]bool // top-level keys to skip (e.g. "version")
	failures []provider.CheckFailure
}

func (c *configBuilder) fail(path resource.PropertyPath, format string, args ...any) {
	c.failures = append(c.failures, provider.CheckFailure{Property: path.String(), Reason: fmt.Sprintf(format, args...)})
}

func (c *configBuilder) failValue(err error) {
	if ve, ok := err.(*valueError); ok {
		c.failures = append(c.failures, provider.CheckFailure{Property: ve.Path.String(), Reason: ve.Reason})
		return
	}
	c.failures = append(c.failures, provider.CheckFailure{Reason: err.Error()})
}

// root builds the configuration of a whole resource, data source or provider.
func (c *configBuilder) root(b *block, inputs resource.Object) cty.Value {
	o := inputs
	if len(c.ignore) > 0 {
		o = resource.Object{}
		for k, v := range inputs {
			if !c.ignore[k] {
				o[k] = v
			}
		}
	}
	return c.block(b, o, nil)
}

func (c *configBuilder) block(b *block, o resource.Object, path resource.PropertyPath) cty.Value {
	for _, k := range o.Keys() {
		if b.attributes[k] == nil && b.blocks[k] == nil {
			c.fail(append(path, k), "unsupported property %q; the schema has %s", k, schemaNames(b))
		}
	}
	attrs := make(map[string]cty.Value, len(b.attributes)+len(b.blocks))
	for name, a := range b.attributes {
		attrs[name] = c.attribute(a, o[name], append(path[:len(path):len(path)], name))
	}
	for name, nb := range b.blocks {
		attrs[name] = c.nestedBlock(nb, o[name], append(path[:len(path):len(path)], name))
	}
	return cty.ObjectVal(attrs)
}

func schemaNames(b *block) string {
	names := make([]string, 0, len(b.attributes)+len(b.blocks))
	for n := range b.attributes {
		names = append(names, n)
	}
	for n := range b.blocks {
		names = append(names, n)
	}
	return fmt.Sprintf("%q", sortedStrings(names))
}

func (c *configBuilder) attribute(a *attribute, v resource.Value, path resource.PropertyPath) cty.Value {
	ty := a.impliedType()
	switch {
	case a.computedOnly():
		if c.strict && !v.IsNull() {
			c.fail(path, "this property is set by the provider and cannot be configured; remove it")
		}
		return cty.NullVal(ty)
	case c.strict && a.required && v.IsNull():
		c.fail(path, "missing required property")
		return cty.NullVal(ty)
	case a.nested != nil:
		return c.nestedObject(a.nested, v, path)
	}
	out, err := toCty(v, ty, path)
	if err != nil {
		c.failValue(err)
		return cty.NullVal(ty)
	}
	return out
}

// attributes builds an object of a nested attribute type.
func (c *configBuilder) attributes(attrs map[string]*attribute, v resource.Value, path resource.PropertyPath) cty.Value {
	o := v.SecretElement().Object()
	for _, k := range o.Keys() {
		if attrs[k] == nil {
			c.fail(append(path, k), "unsupported property %q", k)
		}
	}
	out := make(map[string]cty.Value, len(attrs))
	for name, a := range attrs {
		out[name] = c.attribute(a, o[name], append(path[:len(path):len(path)], name))
	}
	return cty.ObjectVal(out)
}

func (c *configBuilder) nestedObject(o *object, v resource.Value, path resource.PropertyPath) cty.Value {
	ty := o.impliedType()
	one := func(e resource.Value, p resource.PropertyPath) cty.Value {
		return c.attributes(o.attributes, e, p)
	}
	v = v.SecretElement()
	if v.IsNull() {
		return cty.NullVal(ty)
	}
	return c.collection(o.nesting, ty, v, path, one)
}

func (c *configBuilder) nestedBlock(nb *nestedBlock, v resource.Value, path resource.PropertyPath) cty.Value {
	ty := nb.impliedType()
	one := func(e resource.Value, p resource.PropertyPath) cty.Value {
		return c.block(nb.block, e.SecretElement().Object(), p)
	}
	v = v.SecretElement()
	switch {
	case v.IsNull() && nb.nesting == nestingSingle:
		if c.strict && nb.minItems > 0 {
			c.fail(path, "missing required block")
		}
		return cty.NullVal(ty)
	case v.IsNull() && nb.nesting == nestingGroup:
		return one(resource.NewObject(nil), path)
	case v.IsNull():
		v = emptyCollection(nb.nesting)
	}
	out := c.collection(nb.nesting, ty, v, path, one)
	c.checkCount(nb, v, path)
	return out
}

func emptyCollection(n nesting) resource.Value {
	if n == nestingMap {
		return resource.NewObject(nil)
	}
	return resource.NewArray()
}

func (c *configBuilder) checkCount(nb *nestedBlock, v resource.Value, path resource.PropertyPath) {
	if !c.strict || v.Kind() != resource.ArrayKind || v.ContainsUnknowns() {
		return
	}
	n := int64(len(v.Array()))
	if nb.minItems > 0 && n < nb.minItems {
		c.fail(path, "at least %d blocks are required, found %d", nb.minItems, n)
	}
	if nb.maxItems > 0 && n > nb.maxItems {
		c.fail(path, "at most %d blocks are allowed, found %d", nb.maxItems, n)
	}
}

// collection builds a single object, or a list, set or map of objects, with
// one building each object.
func (c *configBuilder) collection(n nesting, ty cty.Type, v resource.Value, path resource.PropertyPath,
	one func(resource.Value, resource.PropertyPath) cty.Value) cty.Value {
	if v.IsUnknown() {
		return cty.UnknownVal(ty)
	}
	switch n {
	case nestingSingle, nestingGroup:
		if v.Kind() == resource.ArrayKind && len(v.Array()) == 1 {
			v = v.Array()[0].SecretElement() // a one-element list reads as the block
		}
		if v.Kind() != resource.ObjectKind {
			c.fail(path, "expected an object, found %s", describe(v))
			return cty.NullVal(ty)
		}
		return one(v, path)
	case nestingMap:
		return c.mapOf(ty, v, path, one)
	}
	return c.sequenceOf(ty, v, path, one)
}

func (c *configBuilder) sequenceOf(ty cty.Type, v resource.Value, path resource.PropertyPath,
	one func(resource.Value, resource.PropertyPath) cty.Value) cty.Value {
	if v.Kind() == resource.ObjectKind {
		v = resource.NewArray(v) // a lone object reads as a one-element list
	}
	if v.Kind() != resource.ArrayKind {
		c.fail(path, "expected a list, found %s", describe(v))
		return cty.NullVal(ty)
	}
	elems := make([]cty.Value, 0, len(v.Array()))
	for i, e := range v.Array() {
		p := append(path[:len(path):len(path)], i)
		e = e.SecretElement()
		switch {
		case e.IsUnknown():
			elems = append(elems, cty.UnknownVal(elementType(ty)))
		case e.Kind() != resource.ObjectKind:
			c.fail(p, "expected an object, found %s", describe(e))
		default:
			elems = append(elems, one(e, p))
		}
	}
	return rebuild(typedEmpty(ty), elems, nil)
}

func (c *configBuilder) mapOf(ty cty.Type, v resource.Value, path resource.PropertyPath,
	one func(resource.Value, resource.PropertyPath) cty.Value) cty.Value {
	if v.Kind() != resource.ObjectKind {
		c.fail(path, "expected a map, found %s", describe(v))
		return cty.NullVal(ty)
	}
	elems := map[string]cty.Value{}
	for _, k := range v.Object().Keys() {
		e := v.Object()[k].SecretElement()
		p := append(path[:len(path):len(path)], k)
		if e.IsUnknown() {
			elems[k] = cty.UnknownVal(elementType(ty))
			continue
		}
		elems[k] = one(e, p)
	}
	kind := typedEmpty(ty)
	if ty == cty.DynamicPseudoType {
		kind = cty.EmptyObjectVal
	}
	return rebuild(kind, nil, elems)
}

// elementType is a collection type's element type; dynamic for the
// structural types used where elements may differ.
func elementType(ty cty.Type) cty.Type {
	if ty.IsCollectionType() {
		return ty.ElementType()
	}
	return cty.DynamicPseudoType
}

// typedEmpty stands in for the configuration value rebuild takes its kind
// from; a dynamic-typed collection is rebuilt as a tuple or object.
func typedEmpty(ty cty.Type) cty.Value {
	switch {
	case ty.IsCollectionType():
		return cty.NullVal(ty)
	case ty == cty.DynamicPseudoType:
		return cty.EmptyTupleVal
	}
	return cty.NullVal(ty)
}
