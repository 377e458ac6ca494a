package tfplugin

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sort"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// valueError is a value that does not fit its schema, at a property path.
type valueError struct {
	Path   resource.PropertyPath
	Reason string
}

func (e *valueError) Error() string {
	if len(e.Path) == 0 {
		return e.Reason
	}
	return e.Path.String() + ": " + e.Reason
}

func valueErrorf(path resource.PropertyPath, format string, args ...any) error {
	return &valueError{Path: append(resource.PropertyPath(nil), path...), Reason: fmt.Sprintf(format, args...)}
}

// toCty converts a plinth value to a cty value of type ty, as Terraform
// would convert configuration: strings, numbers and bools convert into one
// another where the text allows. Secrets are sent as plain values (the
// schema, not the value, decides what the provider treats as sensitive).
func toCty(v resource.Value, ty cty.Type, path resource.PropertyPath) (cty.Value, error) {
	v = v.SecretElement()
	switch {
	case v.IsNull():
		return cty.NullVal(ty), nil
	case v.IsUnknown():
		return cty.UnknownVal(ty), nil
	case ty == cty.DynamicPseudoType:
		return naturalCty(v, path)
	case ty.IsPrimitiveType():
		return primitiveToCty(v, ty, path)
	case ty.IsListType(), ty.IsSetType():
		return sequenceToCty(v, ty, path)
	case ty.IsMapType():
		return mapToCty(v, ty, path)
	case ty.IsObjectType():
		return objectToCty(v, ty, path)
	case ty.IsTupleType():
		return tupleToCty(v, ty, path)
	}
	return cty.NilVal, valueErrorf(path, "values of type %s are not supported", ty.FriendlyName())
}

func primitiveToCty(v resource.Value, ty cty.Type, path resource.PropertyPath) (cty.Value, error) {
	var natural cty.Value
	switch v.Kind() {
	case resource.BoolKind:
		natural = cty.BoolVal(v.Bool())
	case resource.NumberKind:
		if f := v.Number(); v.NumberLiteral() == "" || f != f {
			return cty.NilVal, valueErrorf(path, "NaN is not a number Terraform accepts")
		}
		natural = cty.NumberVal(exactNumber(v))
	case resource.StringKind:
		natural = cty.StringVal(v.Str())
	default:
		return cty.NilVal, valueErrorf(path, "expected a %s, found %s", ty.FriendlyName(), describe(v))
	}
	out, err := convert.Convert(natural, ty)
	if err != nil {
		return cty.NilVal, valueErrorf(path, "expected a %s, found %s", ty.FriendlyName(), describe(v))
	}
	return out, nil
}

// exactNumber is the number at cty's working precision (512 bits). A double
// left at 53 bits would be written to msgpack, when integral and beyond an
// int64, as its shortest decimal, which reads back as a different number.
func exactNumber(v resource.Value) *big.Float {
	bf := v.BigNumber()
	if bf.Prec() < 512 {
		bf = new(big.Float).SetPrec(512).Set(bf)
	}
	return bf
}

func describe(v resource.Value) string {
	switch v.Kind() {
	case resource.StringKind:
		return fmt.Sprintf("the string %q", v.Str())
	case resource.ArrayKind:
		return "a list"
	case resource.ObjectKind:
		return "an object"
	}
	return "a " + v.Kind().String()
}

func sequenceToCty(v resource.Value, ty cty.Type, path resource.PropertyPath) (cty.Value, error) {
	if v.Kind() != resource.ArrayKind {
		return cty.NilVal, valueErrorf(path, "expected a %s, found %s", ty.FriendlyName(), describe(v))
	}
	ety := ty.ElementType()
	elems, err := elementsToCty(v.Array(), ety, path)
	if err != nil {
		return cty.NilVal, err
	}
	if len(elems) == 0 {
		if ty.IsSetType() {
			return cty.SetValEmpty(ety), nil
		}
		return cty.ListValEmpty(ety), nil
	}
	if err := sameTypes(elems, path); err != nil {
		return cty.NilVal, err
	}
	if ty.IsSetType() {
		return cty.SetVal(elems), nil
	}
	return cty.ListVal(elems), nil
}

func elementsToCty(in []resource.Value, ety cty.Type, path resource.PropertyPath) ([]cty.Value, error) {
	out := make([]cty.Value, len(in))
	for i, e := range in {
		c, err := toCty(e, ety, append(path, i))
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// sameTypes guards cty's collection constructors, which panic on elements
// of different types (possible only where the element type is dynamic).
func sameTypes(elems []cty.Value, path resource.PropertyPath) error {
	for _, e := range elems[1:] {
		if !e.Type().Equals(elems[0].Type()) {
			return valueErrorf(path, "all elements must have the same type")
		}
	}
	return nil
}

func mapToCty(v resource.Value, ty cty.Type, path resource.PropertyPath) (cty.Value, error) {
	if v.Kind() != resource.ObjectKind {
		return cty.NilVal, valueErrorf(path, "expected a %s, found %s", ty.FriendlyName(), describe(v))
	}
	o := v.Object()
	if len(o) == 0 {
		return cty.MapValEmpty(ty.ElementType()), nil
	}
	elems := make(map[string]cty.Value, len(o))
	list := make([]cty.Value, 0, len(o))
	for _, k := range o.Keys() {
		c, err := toCty(o[k], ty.ElementType(), append(path, k))
		if err != nil {
			return cty.NilVal, err
		}
		elems[k] = c
		list = append(list, c)
	}
	if err := sameTypes(list, path); err != nil {
		return cty.NilVal, err
	}
	return cty.MapVal(elems), nil
}

func objectToCty(v resource.Value, ty cty.Type, path resource.PropertyPath) (cty.Value, error) {
	if v.Kind() != resource.ObjectKind {
		return cty.NilVal, valueErrorf(path, "expected an object, found %s", describe(v))
	}
	o := v.Object()
	for _, k := range o.Keys() {
		if !ty.HasAttribute(k) {
			return cty.NilVal, valueErrorf(append(path, k), "unsupported property %q; expected one of %s", k, attributeNames(ty))
		}
	}
	attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for name, aty := range ty.AttributeTypes() {
		c, err := toCty(o[name], aty, append(path, name))
		if err != nil {
			return cty.NilVal, err
		}
		attrs[name] = c
	}
	return cty.ObjectVal(attrs), nil
}

func attributeNames(ty cty.Type) string {
	names := make([]string, 0, len(ty.AttributeTypes()))
	for n := range ty.AttributeTypes() {
		names = append(names, n)
	}
	sort.Strings(names)
	return fmt.Sprintf("%q", names)
}

func tupleToCty(v resource.Value, ty cty.Type, path resource.PropertyPath) (cty.Value, error) {
	etys := ty.TupleElementTypes()
	if v.Kind() != resource.ArrayKind || len(v.Array()) != len(etys) {
		return cty.NilVal, valueErrorf(path, "expected a list of %d elements, found %s", len(etys), describe(v))
	}
	elems := make([]cty.Value, len(etys))
	for i, e := range v.Array() {
		c, err := toCty(e, etys[i], append(path, i))
		if err != nil {
			return cty.NilVal, err
		}
		elems[i] = c
	}
	return cty.TupleVal(elems), nil
}

// naturalCty converts a value whose schema type is dynamic: arrays become
// tuples and objects become objects.
func naturalCty(v resource.Value, path resource.PropertyPath) (cty.Value, error) {
	switch v.Kind() {
	case resource.BoolKind:
		return cty.BoolVal(v.Bool()), nil
	case resource.NumberKind:
		return primitiveToCty(v, cty.Number, path)
	case resource.StringKind:
		return cty.StringVal(v.Str()), nil
	case resource.ArrayKind:
		elems := make([]cty.Value, len(v.Array()))
		for i, e := range v.Array() {
			c, err := toCty(e, cty.DynamicPseudoType, append(path, i))
			if err != nil {
				return cty.NilVal, err
			}
			elems[i] = c
		}
		return cty.TupleVal(elems), nil
	case resource.ObjectKind:
		attrs := map[string]cty.Value{}
		for _, k := range v.Object().Keys() {
			c, err := toCty(v.Object()[k], cty.DynamicPseudoType, append(path, k))
			if err != nil {
				return cty.NilVal, err
			}
			attrs[k] = c
		}
		return cty.ObjectVal(attrs), nil
	}
	return cty.NilVal, valueErrorf(path, "%s values cannot be passed to a Terraform provider", v.Kind())
}

// fromCty converts a cty value to a plinth value. Sets become arrays in
// cty's canonical element order.
func fromCty(v cty.Value) resource.Value {
	switch {
	case !v.IsKnown():
		return resource.Unknown()
	case v.IsNull():
		return resource.Null()
	}
	ty := v.Type()
	switch {
	case ty == cty.Bool:
		return resource.NewBool(v.True())
	case ty == cty.Number:
		return numberFromBig(v.AsBigFloat())
	case ty == cty.String:
		return resource.NewString(v.AsString())
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		elems := make([]resource.Value, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			elems = append(elems, fromCty(e))
		}
		return resource.NewArray(elems...)
	case ty.IsMapType(), ty.IsObjectType():
		o := resource.Object{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			o[k.AsString()] = fromCty(e)
		}
		return resource.NewObject(o)
	}
	return resource.Null()
}

// numberFromBig keeps every digit: a number a double holds exactly becomes a
// plain number, any other keeps its decimal literal.
func numberFromBig(f *big.Float) resource.Value {
	if x, acc := f.Float64(); acc == big.Exact {
		return resource.NewNumber(x)
	}
	literal := f.Text('g', -1)
	if f.IsInt() {
		literal = f.Text('f', -1)
	}
	v, err := resource.ParseNumber(literal)
	if err != nil { // infinities: cannot happen for values a provider sends
		x, _ := f.Float64()
		return resource.NewNumber(x)
	}
	return v
}

// encode marshals a value of type ty as msgpack for the wire.
func encode(v cty.Value, ty cty.Type) (dynamicValue, error) {
	if b, ok := fastMsgpack(v, ty); ok {
		return dynamicValue{msgpack: b}, nil
	}
	b, err := ctymsgpack.Marshal(v, ty)
	if err != nil {
		return dynamicValue{}, fmt.Errorf("encoding a value for the provider: %w", err)
	}
	return dynamicValue{msgpack: b}, nil
}

// decode reads a value of type ty from the wire. An empty value is null.
func decode(v dynamicValue, ty cty.Type) (cty.Value, error) {
	switch {
	case len(v.msgpack) > 0:
		return ctymsgpack.Unmarshal(v.msgpack, ty)
	case len(v.json) > 0:
		return ctyjson.Unmarshal(v.json, ty)
	}
	return cty.NullVal(ty), nil
}

// stateJSON renders stored outputs as the JSON Terraform keeps in state, for
// UpgradeResourceState. Numbers keep every digit.
func stateJSON(o resource.Object) ([]byte, error) {
	g, err := jsonable(resource.NewObject(o), nil)
	if err != nil {
		return nil, err
	}
	return json.Marshal(g)
}

func jsonable(v resource.Value, path resource.PropertyPath) (any, error) {
	return resource.ToJSONData(v, path, func(v resource.Value, path resource.PropertyPath) error {
		if v.Kind() == resource.NumberKind {
			return valueErrorf(path, "%v cannot be written to Terraform state", v.Number())
		}
		return valueErrorf(path, "a stored %s cannot be handed to a Terraform provider", v.Kind())
	})
}
