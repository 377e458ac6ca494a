package tfplugin

import (
	"sort"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// markSensitive makes every sensitive attribute of a state value secret, at
// any depth of nested blocks and attributes.
func markSensitive(b *block, o resource.Object) resource.Object {
	if o == nil {
		return nil
	}
	out := o.Copy()
	for name, a := range b.attributes {
		if v, ok := out[name]; ok {
			out[name] = markAttribute(a, v)
		}
	}
	for name, nb := range b.blocks {
		if v, ok := out[name]; ok {
			out[name] = eachElement(nb.nesting, v, func(e resource.Value) resource.Value {
				return resource.NewObject(markSensitive(nb.block, e.Object()))
			})
		}
	}
	return out
}

func markAttribute(a *attribute, v resource.Value) resource.Value {
	switch {
	case v.IsNull():
		return v
	case a.sensitive:
		return resource.MakeSecret(v)
	case a.nested != nil:
		return eachElement(a.nested.nesting, v, func(e resource.Value) resource.Value {
			return resource.NewObject(markSensitive(&block{attributes: a.nested.attributes}, e.Object()))
		})
	}
	return v
}

// eachElement applies f to the objects of a nested value: the value itself
// (single, group), each element (list, set) or each entry (map). Nulls and
// unknowns are left alone.
func eachElement(n nesting, v resource.Value, f func(resource.Value) resource.Value) resource.Value {
	apply := func(e resource.Value) resource.Value {
		if e.Kind() != resource.ObjectKind {
			return e
		}
		return f(e)
	}
	switch {
	case n == nestingSingle || n == nestingGroup:
		return apply(v)
	case v.Kind() == resource.ArrayKind:
		out := make([]resource.Value, len(v.Array()))
		for i, e := range v.Array() {
			out[i] = apply(e)
		}
		return resource.NewArray(out...)
	case v.Kind() == resource.ObjectKind:
		out := resource.Object{}
		for k, e := range v.Object() {
			out[k] = apply(e)
		}
		return resource.NewObject(out)
	}
	return v
}

// settable keeps what a program could set of a state value: attributes the
// provider does not compute alone, without nulls, empty block lists, or
// write-only attributes (never in state). Import and refresh return it as
// the resource's inputs.
func settable(b *block, o resource.Object) resource.Object {
	out := resource.Object{}
	for name, a := range b.attributes {
		v := o[name]
		if a.computedOnly() || a.writeOnly || v.IsNull() {
			continue
		}
		if a.nested != nil {
			v = eachElement(a.nested.nesting, v, func(e resource.Value) resource.Value {
				return resource.NewObject(settable(&block{attributes: a.nested.attributes}, e.Object()))
			})
		}
		out[name] = v
	}
	for name, nb := range b.blocks {
		v := o[name]
		if v.IsNull() || (v.Kind() == resource.ArrayKind && len(v.Array()) == 0) {
			continue
		}
		out[name] = eachElement(nb.nesting, v, func(e resource.Value) resource.Value {
			return resource.NewObject(settable(nb.block, e.Object()))
		})
	}
	return out
}

// stickySecrets keeps secret what the program marked secret, where it
// did, as terraform keeps its configuration's sensitive paths in a
// resource's state: an output named like an argument is made secret at
// the paths the argument holds secrets at (keepers.a of keepers = { a =
// secret, b = "plain" }, not keepers.b). Where the output's shape parts
// from the argument's (a set reordered, a value normalised into another
// kind), all of it is made secret: more, never less.
func stickySecrets(outputs, inputs resource.Object) resource.Object {
	out, copied := outputs, false
	for k, in := range inputs {
		v, ok := outputs[k]
		if !ok || v.IsNull() || !in.ContainsSecrets() {
			continue
		}
		if !copied {
			out, copied = outputs.Copy(), true
		}
		out[k] = secretAt(v, in)
	}
	return out
}

// secretAt makes v secret where in, the argument it comes from, is.
func secretAt(v, in resource.Value) resource.Value {
	switch {
	case v.IsSecret() || v.IsNull() || !in.ContainsSecrets():
		return v
	case in.IsSecret():
		return resource.MakeSecret(v)
	case in.Kind() == resource.ObjectKind && v.Kind() == resource.ObjectKind:
		return resource.NewObject(stickySecrets(v.Object(), in.Object()))
	case in.Kind() == resource.ArrayKind && v.Kind() == resource.ArrayKind && len(in.Array()) == len(v.Array()):
		elems := make([]resource.Value, len(v.Array()))
		for i, e := range v.Array() {
			elems[i] = secretAt(e, in.Array()[i])
		}
		return resource.NewArray(elems...)
	}
	return resource.MakeSecret(v)
}

func sortedStrings(s []string) []string {
	sort.Strings(s)
	return s
}
