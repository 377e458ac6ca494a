package tfplugin

import (
	"sync"

	"github.com/zclconf/go-cty/cty"
)

// schema is a Terraform schema (provider, resource or data source) in the
// adapter's own terms, the same for both protocol versions.
type schema struct {
	version int64
	block   *block
}

// block is a configuration block: attributes and nested blocks.
type block struct {
	attributes  map[string]*attribute
	blocks      map[string]*nestedBlock
	description string
	deprecated  bool
	// implied caches impliedType: every call of every resource asks for
	// it, and a schema does not change once built.
	implied struct {
		once sync.Once
		ty   cty.Type
	}
}

// attribute is one attribute. Exactly one of typ and nested is set: nested
// is protocol 6's nested attribute object.
type attribute struct {
	typ         cty.Type
	nested      *object
	description string
	required    bool
	optional    bool
	computed    bool
	sensitive   bool
	writeOnly   bool
	deprecated  bool
}

// object is a protocol 6 nested attribute type.
type object struct {
	attributes map[string]*attribute
	nesting    nesting
}

// nestedBlock is a block type nested in a block.
type nestedBlock struct {
	block    *block
	nesting  nesting
	minItems int64
	maxItems int64
}

// nesting says how a nested block or attribute object repeats.
type nesting uint8

const (
	nestingInvalid nesting = iota
	nestingSingle
	nestingList
	nestingSet
	nestingMap
	nestingGroup
)

// function is a provider-defined function's signature.
type function struct {
	params      []param
	variadic    *param
	returns     cty.Type
	summary     string
	description string
}

type param struct {
	name         string
	typ          cty.Type
	allowNull    bool
	allowUnknown bool
	description  string
}

// computedOnly reports whether the provider alone sets the attribute.
func (a *attribute) computedOnly() bool { return a.computed && !a.optional && !a.required }

// impliedType is the cty type of values of the block.
func (b *block) impliedType() cty.Type {
	if b == nil {
		return cty.EmptyObject
	}
	b.implied.once.Do(func() { b.implied.ty = b.objectType() })
	return b.implied.ty
}

// objectType builds the block's implied type (impliedType caches it).
func (b *block) objectType() cty.Type {
	attrs := make(map[string]cty.Type, len(b.attributes)+len(b.blocks))
	for name, a := range b.attributes {
		attrs[name] = a.impliedType()
	}
	for name, nb := range b.blocks {
		attrs[name] = nb.impliedType()
	}
	return cty.Object(attrs)
}

func (a *attribute) impliedType() cty.Type {
	if a.nested != nil {
		return a.nested.impliedType()
	}
	return a.typ
}

func (o *object) impliedType() cty.Type {
	attrs := make(map[string]cty.Type, len(o.attributes))
	for name, a := range o.attributes {
		attrs[name] = a.impliedType()
	}
	return collectionOf(o.nesting, cty.Object(attrs))
}

func (nb *nestedBlock) impliedType() cty.Type {
	return collectionOf(nb.nesting, nb.block.impliedType())
}

// collectionOf wraps an element type per the nesting mode. A list or map
// whose elements hold dynamic types is a tuple or object on the wire, since
// its elements may differ in type.
func collectionOf(n nesting, elem cty.Type) cty.Type {
	switch n {
	case nestingList:
		if elem.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.List(elem)
	case nestingSet:
		return cty.Set(elem)
	case nestingMap:
		if elem.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.Map(elem)
	}
	return elem
}
