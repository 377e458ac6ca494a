package tfserve

import (
	"fmt"
	"math/big"
	"sort"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// toTF converts an SDK value to a Terraform value of type t. Secrets are
// written plain (sensitivity is the schema's business); an asset or
// archive is written as its path, or an asset's text.
func toTF(v resource.Value, t *vtype, path *tftypes.AttributePath) (tftypes.Value, error) {
	v = v.SecretElement()
	switch {
	case v.IsUnknown():
		return tftypes.NewValue(t.tftype(), tftypes.UnknownValue), nil
	case v.IsNull():
		return tftypes.NewValue(t.tftype(), nil), nil
	}
	switch t.kind {
	case kindDynamic:
		return dynamicToTF(v, path)
	case kindList, kindSet:
		return listToTF(v, t, path)
	case kindMap:
		return mapToTF(v, t, path)
	case kindObject:
		if v.Kind() != resource.ObjectKind {
			return tftypes.Value{}, path.NewErrorf("want an object, got %s", v.Kind())
		}
		return objectToTF(v.Object(), t, path)
	}
	return primitiveToTF(v, t, path)
}

func primitiveToTF(v resource.Value, t *vtype, path *tftypes.AttributePath) (tftypes.Value, error) {
	switch {
	case t.kind == kindBool && v.Kind() == resource.BoolKind:
		return tftypes.NewValue(tftypes.Bool, v.Bool()), nil
	case t.kind == kindNumber && v.Kind() == resource.NumberKind:
		return tftypes.NewValue(tftypes.Number, v.BigNumber()), nil
	case t.kind == kindString && v.Kind() == resource.StringKind:
		return tftypes.NewValue(tftypes.String, v.Str()), nil
	case t.kind == kindAsset && v.Kind() == resource.AssetKind:
		a := v.Asset()
		if a.Path != "" {
			return tftypes.NewValue(tftypes.String, a.Path), nil
		}
		return tftypes.NewValue(tftypes.String, a.Text), nil
	case t.kind == kindArchive && v.Kind() == resource.ArchiveKind:
		return tftypes.NewValue(tftypes.String, v.Archive().Path), nil
	case (t.kind == kindAsset || t.kind == kindArchive) && v.Kind() == resource.StringKind:
		return tftypes.NewValue(tftypes.String, v.Str()), nil
	}
	return tftypes.Value{}, path.NewErrorf("want a %s, got %s", t.tftype(), v.Kind())
}

func listToTF(v resource.Value, t *vtype, path *tftypes.AttributePath) (tftypes.Value, error) {
	if v.Kind() != resource.ArrayKind {
		return tftypes.Value{}, path.NewErrorf("want a list, got %s", v.Kind())
	}
	elems := make([]tftypes.Value, 0, len(v.Array()))
	for i, e := range v.Array() {
		tv, err := toTF(e, t.elem, path.WithElementKeyInt(i))
		if err != nil {
			return tftypes.Value{}, err
		}
		elems = append(elems, tv)
	}
	et, err := collectionElem(t.elem, elems, path)
	if err != nil {
		return tftypes.Value{}, err
	}
	if t.kind == kindSet {
		return tftypes.NewValue(tftypes.Set{ElementType: et}, elems), nil
	}
	return tftypes.NewValue(tftypes.List{ElementType: et}, elems), nil
}

func mapToTF(v resource.Value, t *vtype, path *tftypes.AttributePath) (tftypes.Value, error) {
	if v.Kind() != resource.ObjectKind {
		return tftypes.Value{}, path.NewErrorf("want a map, got %s", v.Kind())
	}
	keys := sortedNames(v.Object())
	all := make([]tftypes.Value, 0, len(keys))
	for _, k := range keys {
		tv, err := toTF(v.Object()[k], t.elem, path.WithElementKeyString(k))
		if err != nil {
			return tftypes.Value{}, err
		}
		all = append(all, tv)
	}
	et, err := collectionElem(t.elem, all, path)
	if err != nil {
		return tftypes.Value{}, err
	}
	elems := make(map[string]tftypes.Value, len(keys))
	for i, k := range keys {
		elems[k] = all[i]
	}
	return tftypes.NewValue(tftypes.Map{ElementType: et}, elems), nil
}

// collectionElem is the element type a list or map is written with: the
// schema's, or, for dynamic elements, the one type the known elements
// share. An unknown or null element of no type takes that type (it is
// rewritten in elems): a map of any values holding a string and an
// unknown is a map of strings, as Terraform's configuration makes it.
func collectionElem(t *vtype, elems []tftypes.Value, path *tftypes.AttributePath) (tftypes.Type, error) {
	if t.kind != kindDynamic {
		return t.tftype(), nil
	}
	var shared tftypes.Type = tftypes.DynamicPseudoType
	for _, e := range elems {
		if !e.Type().Is(tftypes.DynamicPseudoType) {
			shared = e.Type()
			break
		}
	}
	for i, e := range elems {
		switch {
		case e.Type().Is(tftypes.DynamicPseudoType) && !e.IsKnown():
			elems[i] = tftypes.NewValue(shared, tftypes.UnknownValue)
		case e.Type().Is(tftypes.DynamicPseudoType):
			elems[i] = tftypes.NewValue(shared, nil)
		case !e.Type().Equal(shared):
			return nil, path.NewErrorf("the elements have different types (%s and %s): Terraform cannot hold them in one list or map", shared, e.Type())
		}
	}
	return shared, nil
}

// objectToTF writes every attribute of t: null where o has none (an empty
// collection for a protocol 5 block).
func objectToTF(o resource.Object, t *vtype, path *tftypes.AttributePath) (tftypes.Value, error) {
	vals := make(map[string]tftypes.Value, len(t.attrs))
	types := make(map[string]tftypes.Type, len(t.attrs))
	for _, a := range t.attrs {
		v, ok := o[a.name]
		if (!ok || v.IsNull()) && a.block {
			v = emptyBlock(a.t)
		}
		tv, err := toTF(v, a.t, path.WithAttributeName(a.tf))
		if err != nil {
			return tftypes.Value{}, err
		}
		vals[a.tf], types[a.tf] = tv, tv.Type()
		if a.t.kind != kindDynamic && !tv.Type().Is(tftypes.DynamicPseudoType) {
			types[a.tf] = a.t.tftype()
		}
	}
	return tftypes.NewValue(tftypes.Object{AttributeTypes: types}, vals), nil
}

// emptyBlock is the value of an absent protocol 5 block: an empty list or
// map, or null for a single block.
func emptyBlock(t *vtype) resource.Value {
	switch t.kind {
	case kindList, kindSet:
		return resource.NewArray()
	case kindMap:
		return resource.NewObject(resource.Object{})
	}
	return resource.Null()
}

// dynamicToTF writes a value of no declared type with the type its
// content has, as Terraform's configuration would: arrays are tuples.
func dynamicToTF(v resource.Value, path *tftypes.AttributePath) (tftypes.Value, error) {
	v = v.SecretElement()
	switch v.Kind() {
	case resource.NullKind:
		return tftypes.NewValue(tftypes.DynamicPseudoType, nil), nil
	case resource.UnknownKind:
		return tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue), nil
	case resource.BoolKind:
		return tftypes.NewValue(tftypes.Bool, v.Bool()), nil
	case resource.NumberKind:
		return tftypes.NewValue(tftypes.Number, v.BigNumber()), nil
	case resource.StringKind:
		return tftypes.NewValue(tftypes.String, v.Str()), nil
	case resource.ArrayKind:
		elems, types := make([]tftypes.Value, 0, len(v.Array())), make([]tftypes.Type, 0, len(v.Array()))
		for i, e := range v.Array() {
			tv, err := dynamicToTF(e, path.WithElementKeyInt(i))
			if err != nil {
				return tftypes.Value{}, err
			}
			elems, types = append(elems, tv), append(types, tv.Type())
		}
		return tftypes.NewValue(tftypes.Tuple{ElementTypes: types}, elems), nil
	case resource.ObjectKind:
		vals, types := map[string]tftypes.Value{}, map[string]tftypes.Type{}
		for k, e := range v.Object() {
			tv, err := dynamicToTF(e, path.WithAttributeName(k))
			if err != nil {
				return tftypes.Value{}, err
			}
			vals[k], types[k] = tv, tv.Type()
		}
		return tftypes.NewValue(tftypes.Object{AttributeTypes: types}, vals), nil
	case resource.AssetKind, resource.ArchiveKind:
		return primitiveToTF(v, &vtype{kind: kindString}, path)
	}
	return tftypes.Value{}, path.NewErrorf("a %s cannot be written for Terraform", v.Kind())
}

// fromTF converts a Terraform value to an SDK value. sensitive marks the
// result secret.
func fromTF(v tftypes.Value, t *vtype, sensitive bool) (resource.Value, error) {
	out, err := fromTFPlain(v, t)
	if err != nil || !sensitive || out.IsNull() {
		return out, err
	}
	return resource.MakeSecret(out), nil
}

func fromTFPlain(v tftypes.Value, t *vtype) (resource.Value, error) {
	switch {
	case !v.IsKnown():
		return resource.Unknown(), nil
	case v.IsNull():
		return resource.Null(), nil
	}
	ty := v.Type()
	switch {
	case ty.Is(tftypes.Bool):
		var b bool
		err := v.As(&b)
		return resource.NewBool(b), err
	case ty.Is(tftypes.Number):
		f := new(big.Float)
		if err := v.As(&f); err != nil {
			return resource.Value{}, err
		}
		return numberOf(f), nil
	case ty.Is(tftypes.String):
		var s string
		err := v.As(&s)
		return stringOf(s, t), err
	case ty.Is(tftypes.List{}), ty.Is(tftypes.Set{}), ty.Is(tftypes.Tuple{}):
		return sequenceFromTF(v, t)
	case ty.Is(tftypes.Map{}):
		return mapFromTF(v, t)
	case ty.Is(tftypes.Object{}):
		if t != nil && t.kind == kindObject {
			o, err := objectFromTF(v, t)
			return resource.NewObject(o), err
		}
		return mapFromTF(v, nil)
	}
	return resource.Value{}, fmt.Errorf("values of type %s are not supported", ty)
}

// stringOf reads a string: an asset or archive attribute holds a path.
func stringOf(s string, t *vtype) resource.Value {
	if t != nil && t.kind == kindAsset {
		if a, err := resource.NewPathAsset(s); err == nil {
			return resource.NewAsset(a)
		}
	}
	if t != nil && t.kind == kindArchive {
		if a, err := resource.NewPathArchive(s); err == nil {
			return resource.NewArchive(a)
		}
	}
	return resource.NewString(s)
}

// numberOf keeps every digit: a number a double cannot hold exactly
// keeps its decimal text.
func numberOf(f *big.Float) resource.Value {
	if x, acc := f.Float64(); acc == big.Exact {
		return resource.NewNumber(x)
	}
	if n, err := resource.ParseNumber(f.Text('g', -1)); err == nil {
		return n
	}
	x, _ := f.Float64()
	return resource.NewNumber(x)
}

func elemOf(t *vtype) *vtype {
	if t == nil || t.elem == nil {
		return nil
	}
	return t.elem
}

func sequenceFromTF(v tftypes.Value, t *vtype) (resource.Value, error) {
	var elems []tftypes.Value
	if err := v.As(&elems); err != nil {
		return resource.Value{}, err
	}
	out := make([]resource.Value, 0, len(elems))
	for _, e := range elems {
		rv, err := fromTFPlain(e, elemOf(t))
		if err != nil {
			return resource.Value{}, err
		}
		out = append(out, rv)
	}
	return resource.NewArray(out...), nil
}

func mapFromTF(v tftypes.Value, t *vtype) (resource.Value, error) {
	var elems map[string]tftypes.Value
	if err := v.As(&elems); err != nil {
		return resource.Value{}, err
	}
	out := make(resource.Object, len(elems))
	for k, e := range elems {
		rv, err := fromTFPlain(e, elemOf(t))
		if err != nil {
			return resource.Value{}, err
		}
		if !rv.IsNull() || t != nil {
			out[k] = rv
		}
	}
	return resource.NewObject(out), nil
}

// objectFromTF reads an object by its schema: null attributes and empty
// protocol 5 blocks are left out, as the SDK leaves out absent properties.
func objectFromTF(v tftypes.Value, t *vtype) (resource.Object, error) {
	var vals map[string]tftypes.Value
	if err := v.As(&vals); err != nil {
		return nil, err
	}
	out := make(resource.Object, len(vals))
	for _, name := range sortedNames(vals) {
		a, ok := t.byTF[name]
		if !ok {
			continue
		}
		rv, err := fromTF(vals[name], a.t, a.sensitive)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
		if rv.IsNull() || (a.block && emptyCollection(rv)) {
			continue
		}
		out[a.name] = rv
	}
	return out, nil
}

func emptyCollection(v resource.Value) bool {
	switch v.Kind() {
	case resource.ArrayKind:
		return len(v.Array()) == 0
	case resource.ObjectKind:
		return len(v.Object()) == 0
	}
	return false
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
