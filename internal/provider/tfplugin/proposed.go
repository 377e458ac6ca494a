package tfplugin

import (
	"github.com/zclconf/go-cty/cty"
)

// proposedNew builds the proposed new state Terraform's protocol hands to
// PlanResourceChange: the configuration, with every computed attribute that
// the configuration leaves null keeping its prior value. Nested blocks are
// matched to their prior selves by index (lists), key (maps) or identity of
// their configurable attributes (sets). A null prior (a create) is treated
// as an object whose attributes are all null.
func proposedNew(b *block, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	if prior.IsNull() || !prior.IsKnown() {
		prior = cty.NullVal(b.impliedType())
	}
	attrs := proposedAttributes(b.attributes, prior, config)
	for name, nb := range b.blocks {
		attrs[name] = proposedNestedBlock(nb, attrOf(prior, name), attrOf(config, name))
	}
	return cty.ObjectVal(attrs)
}

// attrOf returns an attribute of an object, null when the object is null.
func attrOf(obj cty.Value, name string) cty.Value {
	aty := obj.Type().AttributeType(name)
	if obj.IsNull() || !obj.IsKnown() {
		return cty.NullVal(aty)
	}
	return obj.GetAttr(name)
}

func proposedAttributes(attrs map[string]*attribute, prior, config cty.Value) map[string]cty.Value {
	out := make(map[string]cty.Value, len(attrs))
	for name, a := range attrs {
		priorV, configV := attrOf(prior, name), attrOf(config, name)
		switch {
		case a.writeOnly:
			out[name] = cty.NullVal(configV.Type())
		case a.computed && configV.IsNull():
			out[name] = priorV
		case a.nested != nil:
			out[name] = proposedNestedObject(a.nested, priorV, configV)
		default:
			out[name] = configV
		}
	}
	return out
}

func proposedNestedBlock(nb *nestedBlock, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	one := func(p, c cty.Value) cty.Value { return proposedNew(nb.block, p, c) }
	match := func(p, c cty.Value) bool { return blockMatches(nb.block, p, c) }
	return proposedCollection(nb.nesting, prior, config, one, match)
}

func proposedNestedObject(o *object, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	one := func(p, c cty.Value) cty.Value {
		if c.IsNull() || !c.IsKnown() {
			return c
		}
		if p.IsNull() || !p.IsKnown() {
			p = cty.NullVal(c.Type())
		}
		return cty.ObjectVal(proposedAttributes(o.attributes, p, c))
	}
	match := func(p, c cty.Value) bool { return attributesMatch(o.attributes, p, c) }
	return proposedCollection(o.nesting, prior, config, one, match)
}

// proposedCollection applies one to each element of config paired with its
// prior element, per the nesting mode.
func proposedCollection(n nesting, prior, config cty.Value, one func(p, c cty.Value) cty.Value, match func(p, c cty.Value) bool) cty.Value {
	switch n {
	case nestingSingle, nestingGroup:
		return one(prior, config)
	case nestingList:
		return proposedList(prior, config, one)
	case nestingMap:
		return proposedMap(prior, config, one)
	case nestingSet:
		return proposedSet(prior, config, one, match)
	}
	return config
}

func knownElements(v cty.Value) []cty.Value {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	var out []cty.Value
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		out = append(out, e)
	}
	return out
}

func proposedList(prior, config cty.Value, one func(p, c cty.Value) cty.Value) cty.Value {
	priors, configs := knownElements(prior), knownElements(config)
	out := make([]cty.Value, len(configs))
	for i, c := range configs {
		p := cty.NullVal(c.Type())
		if i < len(priors) {
			p = priors[i]
		}
		out[i] = one(p, c)
	}
	return rebuild(config, out, nil)
}

func proposedMap(prior, config cty.Value, one func(p, c cty.Value) cty.Value) cty.Value {
	out := map[string]cty.Value{}
	for it := config.ElementIterator(); it.Next(); {
		k, c := it.Element()
		p := cty.NullVal(c.Type())
		if !prior.IsNull() && prior.IsKnown() {
			if pk := cty.StringVal(k.AsString()); prior.Type().IsObjectType() {
				if prior.Type().HasAttribute(k.AsString()) {
					p = prior.GetAttr(k.AsString())
				}
			} else if prior.HasIndex(pk).True() {
				p = prior.Index(pk)
			}
		}
		out[k.AsString()] = one(p, c)
	}
	return rebuild(config, nil, out)
}

func proposedSet(prior, config cty.Value, one func(p, c cty.Value) cty.Value, match func(p, c cty.Value) bool) cty.Value {
	priors := knownElements(prior)
	used := make([]bool, len(priors))
	var out []cty.Value
	for _, c := range knownElements(config) {
		p := cty.NullVal(c.Type())
		for i, cand := range priors {
			if !used[i] && match(cand, c) {
				p, used[i] = cand, true
				break
			}
		}
		out = append(out, one(p, c))
	}
	return rebuild(config, out, nil)
}

// rebuild makes a collection of config's kind from new elements.
func rebuild(config cty.Value, elems []cty.Value, keyed map[string]cty.Value) cty.Value {
	ty := config.Type()
	switch {
	case ty.IsListType() && len(elems) == 0:
		return cty.ListValEmpty(ty.ElementType())
	case ty.IsListType():
		return cty.ListVal(elems)
	case ty.IsSetType() && len(elems) == 0:
		return cty.SetValEmpty(ty.ElementType())
	case ty.IsSetType():
		return cty.SetVal(elems)
	case ty.IsTupleType():
		return cty.TupleVal(elems)
	case ty.IsMapType() && len(keyed) == 0:
		return cty.MapValEmpty(ty.ElementType())
	case ty.IsMapType():
		return cty.MapVal(keyed)
	case ty.IsObjectType():
		return cty.ObjectVal(keyed)
	}
	return config
}

// blockMatches reports whether a prior set element could be the one a config
// element describes: every attribute the config sets (and knows) is equal,
// and nested blocks match likewise.
func blockMatches(b *block, prior, config cty.Value) bool {
	if !attributesMatch(b.attributes, prior, config) {
		return false
	}
	for name, nb := range b.blocks {
		p, c := attrOf(prior, name), attrOf(config, name)
		if nb.nesting == nestingSingle || nb.nesting == nestingGroup {
			if c.IsNull() != p.IsNull() || (!c.IsNull() && !blockMatches(nb.block, p, c)) {
				return false
			}
		}
	}
	return true
}

func attributesMatch(attrs map[string]*attribute, prior, config cty.Value) bool {
	if prior.IsNull() || config.IsNull() {
		return prior.IsNull() == config.IsNull()
	}
	for name, a := range attrs {
		c := attrOf(config, name)
		if !c.IsWhollyKnown() || (a.computed && c.IsNull()) || a.writeOnly {
			continue
		}
		if eq := attrOf(prior, name).Equals(c); !eq.IsKnown() || eq.False() {
			return false
		}
	}
	return true
}
