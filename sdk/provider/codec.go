package provider

import (
	"fmt"
	"math/big"
	"reflect"
	"strconv"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// A codec converts between one Go type and resource values, validates values
// against the type, and describes it in the schema. Codecs are built once
// per type when a provider is made (see builder.go), so conversions do no
// type analysis.
type codec interface {
	// schemaType describes the Go type as a property type.
	schemaType() Type
	// check appends a failure for each way v does not fit the type. v is
	// known and not null; secrets are already unwrapped.
	check(v resource.Value, path resource.PropertyPath, fs *[]CheckFailure)
	// decode stores v, known and not null and with secrets unwrapped, into
	// rv, which is settable and zero.
	decode(v resource.Value, rv reflect.Value) error
	// encode converts rv; a null result means the property is absent.
	encode(rv reflect.Value) (resource.Value, error)
	// withDefaults fills in defaults of nested object properties.
	withDefaults(v resource.Value) resource.Value
}

// checkValue validates any value against c: null and unknown values fit
// every type, and secrets are checked by their element.
func checkValue(c codec, v resource.Value, path resource.PropertyPath, fs *[]CheckFailure) {
	if _, raw := c.(valueCodec); raw {
		return
	}
	v = v.SecretElement()
	if v.IsNull() || v.IsUnknown() {
		return
	}
	c.check(v, path, fs)
}

// decodeValue stores v into rv: null and unknown leave rv zero, secrets are
// unwrapped (the caller tracks secretness), and a resource.Value field gets
// v exactly as it is.
func decodeValue(c codec, v resource.Value, rv reflect.Value) error {
	if _, raw := c.(valueCodec); raw {
		return c.decode(v, rv)
	}
	v = v.SecretElement()
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	return c.decode(v, rv)
}

func defaultsOf(c codec, v resource.Value) resource.Value {
	if v.IsSecret() {
		return resource.MakeSecret(c.withDefaults(v.SecretElement()))
	}
	if v.IsNull() || v.IsUnknown() {
		return v
	}
	return c.withDefaults(v)
}

// mismatch records that v is not of the wanted type.
func mismatch(fs *[]CheckFailure, path resource.PropertyPath, want string, v resource.Value) {
	*fs = append(*fs, CheckFailure{
		Property: path.String(),
		Reason:   fmt.Sprintf("expected %s, got %s", want, article(v.Kind().String())),
	})
}

func article(noun string) string {
	switch noun[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + noun
	}
	return "a " + noun
}

// kindError is a decode error: the value does not fit the Go type.
func kindError(want string, v resource.Value) error {
	return fmt.Errorf("expected %s, got %s", want, article(v.Kind().String()))
}

type boolCodec struct{}

func (boolCodec) schemaType() Type { return Type{Kind: TypeBool} }
func (boolCodec) check(v resource.Value, p resource.PropertyPath, fs *[]CheckFailure) {
	if v.Kind() != resource.BoolKind {
		mismatch(fs, p, "a boolean", v)
	}
}
func (boolCodec) decode(v resource.Value, rv reflect.Value) error {
	if v.Kind() != resource.BoolKind {
		return kindError("a boolean", v)
	}
	rv.SetBool(v.Bool())
	return nil
}
func (boolCodec) encode(rv reflect.Value) (resource.Value, error) {
	return resource.NewBool(rv.Bool()), nil
}
func (boolCodec) withDefaults(v resource.Value) resource.Value { return v }

type stringCodec struct{}

func (stringCodec) schemaType() Type { return Type{Kind: TypeString} }
func (stringCodec) check(v resource.Value, p resource.PropertyPath, fs *[]CheckFailure) {
	if v.Kind() != resource.StringKind {
		mismatch(fs, p, "a string", v)
	}
}
func (stringCodec) decode(v resource.Value, rv reflect.Value) error {
	if v.Kind() != resource.StringKind {
		return kindError("a string", v)
	}
	rv.SetString(v.Str())
	return nil
}
func (stringCodec) encode(rv reflect.Value) (resource.Value, error) {
	return resource.NewString(rv.String()), nil
}
func (stringCodec) withDefaults(v resource.Value) resource.Value { return v }

type floatCodec struct{}

func (floatCodec) schemaType() Type { return Type{Kind: TypeNumber} }
func (floatCodec) check(v resource.Value, p resource.PropertyPath, fs *[]CheckFailure) {
	if v.Kind() != resource.NumberKind {
		mismatch(fs, p, "a number", v)
	}
}
func (floatCodec) decode(v resource.Value, rv reflect.Value) error {
	if v.Kind() != resource.NumberKind {
		return kindError("a number", v)
	}
	rv.SetFloat(v.Number())
	return nil
}
func (floatCodec) encode(rv reflect.Value) (resource.Value, error) {
	return resource.NewNumber(rv.Float()), nil
}
func (floatCodec) withDefaults(v resource.Value) resource.Value { return v }

// intCodec handles every signed and unsigned integer type, exactly: a
// 64-bit integer beyond 2^53 keeps every digit.
type intCodec struct {
	t reflect.Type
}

func (intCodec) schemaType() Type { return Type{Kind: TypeInteger} }

func (c intCodec) check(v resource.Value, p resource.PropertyPath, fs *[]CheckFailure) {
	if v.Kind() != resource.NumberKind {
		mismatch(fs, p, "an integer", v)
		return
	}
	if _, ok := c.small(v); ok {
		return
	}
	if _, err := c.integer(v); err != nil {
		*fs = append(*fs, CheckFailure{Property: p.String(), Reason: err.Error()})
	}
}

// small returns v when its literal is a decimal integer that fits both
// int64 and the Go type: the common case, decided without the big
// numbers of integer (which cost a no-change preview of 100,000
// resources half a second) and, for a double, without formatting it.
func (c intCodec) small(v resource.Value) (int64, bool) {
	n, ok := v.Int64()
	if !ok {
		return 0, false
	}
	bits := uint(c.t.Bits())
	switch c.t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return n, n >= 0 && (bits == 64 || n < 1<<bits)
	}
	return n, bits == 64 || n>>(bits-1) == 0 || n>>(bits-1) == -1
}

// integer returns v as an integer that fits the Go type.
func (c intCodec) integer(v resource.Value) (*big.Int, error) {
	f := v.BigNumber()
	if f.IsInf() || !f.IsInt() {
		return nil, fmt.Errorf("expected an integer, got %s", v.NumberLiteral())
	}
	i, _ := f.Int(nil)
	lo, hi := intRange(c.t)
	if i.Cmp(lo) < 0 || i.Cmp(hi) > 0 {
		return nil, fmt.Errorf("%s is out of range: it must be between %s and %s", i, lo, hi)
	}
	return i, nil
}

func intRange(t reflect.Type) (lo, hi *big.Int) {
	bits := uint(t.Bits())
	one := big.NewInt(1)
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(one, bits), one)
	}
	hi = new(big.Int).Sub(new(big.Int).Lsh(one, bits-1), one)
	return new(big.Int).Neg(new(big.Int).Add(hi, one)), hi
}

func (c intCodec) decode(v resource.Value, rv reflect.Value) error {
	if v.Kind() != resource.NumberKind {
		return kindError("an integer", v)
	}
	if n, ok := c.small(v); ok {
		if rv.CanInt() {
			rv.SetInt(n)
		} else {
			rv.SetUint(uint64(n))
		}
		return nil
	}
	i, err := c.integer(v)
	if err != nil {
		return err
	}
	if rv.CanInt() {
		rv.SetInt(i.Int64())
	} else {
		rv.SetUint(i.Uint64())
	}
	return nil
}

func (c intCodec) encode(rv reflect.Value) (resource.Value, error) {
	var literal string
	if rv.CanInt() {
		n := rv.Int()
		if n >= -1<<53 && n <= 1<<53 {
			return resource.NewNumber(float64(n)), nil
		}
		literal = strconv.FormatInt(n, 10)
	} else {
		n := rv.Uint()
		if n <= 1<<53 {
			return resource.NewNumber(float64(n)), nil
		}
		literal = strconv.FormatUint(n, 10)
	}
	return resource.ParseNumber(literal)
}

func (intCodec) withDefaults(v resource.Value) resource.Value { return v }

// blobCodec converts an asset (*resource.Asset) or archive
// (*resource.Archive) field.
type blobCodec struct {
	kind     resource.Kind
	typeKind TypeKind
	what     string                                // "an asset"
	get      func(resource.Value) any              // the pointer a value holds
	wrap     func(rv reflect.Value) resource.Value // a non-nil pointer as a value
}

func assetCodec() blobCodec {
	return blobCodec{kind: resource.AssetKind, typeKind: TypeAsset, what: "an asset",
		get:  func(v resource.Value) any { return v.Asset() },
		wrap: func(rv reflect.Value) resource.Value { return resource.NewAsset(rv.Interface().(*resource.Asset)) }}
}

func archiveCodec() blobCodec {
	return blobCodec{kind: resource.ArchiveKind, typeKind: TypeArchive, what: "an archive",
		get:  func(v resource.Value) any { return v.Archive() },
		wrap: func(rv reflect.Value) resource.Value { return resource.NewArchive(rv.Interface().(*resource.Archive)) }}
}

func (c blobCodec) schemaType() Type { return Type{Kind: c.typeKind} }
func (c blobCodec) check(v resource.Value, p resource.PropertyPath, fs *[]CheckFailure) {
	if v.Kind() != c.kind {
		mismatch(fs, p, c.what, v)
	}
}
func (c blobCodec) decode(v resource.Value, rv reflect.Value) error {
	if v.Kind() != c.kind {
		return kindError(c.what, v)
	}
	rv.Set(reflect.ValueOf(c.get(v)))
	return nil
}
func (c blobCodec) encode(rv reflect.Value) (resource.Value, error) {
	if rv.IsNil() {
		return resource.Null(), nil
	}
	return c.wrap(rv), nil
}
func (blobCodec) withDefaults(v resource.Value) resource.Value { return v }

// valueCodec passes a resource.Value field through untouched, unknowns and
// secrets included.
type valueCodec struct{}

func (valueCodec) schemaType() Type                                             { return Type{Kind: TypeAny} }
func (valueCodec) check(resource.Value, resource.PropertyPath, *[]CheckFailure) {}
func (valueCodec) decode(v resource.Value, rv reflect.Value) error {
	rv.Set(reflect.ValueOf(v))
	return nil
}
func (valueCodec) encode(rv reflect.Value) (resource.Value, error) {
	return rv.Interface().(resource.Value), nil
}
func (valueCodec) withDefaults(v resource.Value) resource.Value { return v }

// anyCodec handles an interface{} field as plain Go data (see
// resource.FromGo and Value.ToGo).
type anyCodec struct{}

func (anyCodec) schemaType() Type                                             { return Type{Kind: TypeAny} }
func (anyCodec) check(resource.Value, resource.PropertyPath, *[]CheckFailure) {}
func (anyCodec) decode(v resource.Value, rv reflect.Value) error {
	if x := v.ToGo(); x != nil {
		rv.Set(reflect.ValueOf(x))
	}
	return nil
}
func (anyCodec) encode(rv reflect.Value) (resource.Value, error) {
	if rv.IsNil() {
		return resource.Null(), nil
	}
	return resource.FromGo(rv.Interface())
}
func (anyCodec) withDefaults(v resource.Value) resource.Value { return v }

// ptrCodec makes a pointer field: nil is an absent property.
type ptrCodec struct {
	elem codec
}

func (c ptrCodec) schemaType() Type { return c.elem.schemaType() }
func (c ptrCodec) check(v resource.Value, p resource.PropertyPath, fs *[]CheckFailure) {
	c.elem.check(v, p, fs)
}
func (c ptrCodec) decode(v resource.Value, rv reflect.Value) error {
	e := reflect.New(rv.Type().Elem())
	if err := c.elem.decode(v, e.Elem()); err != nil {
		return err
	}
	rv.Set(e)
	return nil
}
func (c ptrCodec) encode(rv reflect.Value) (resource.Value, error) {
	if rv.IsNil() {
		return resource.Null(), nil
	}
	return c.elem.encode(rv.Elem())
}
func (c ptrCodec) withDefaults(v resource.Value) resource.Value { return c.elem.withDefaults(v) }

type sliceCodec struct {
	elem codec
}

func (c sliceCodec) schemaType() Type {
	e := c.elem.schemaType()
	return Type{Kind: TypeArray, Elem: &e}
}

func (c sliceCodec) check(v resource.Value, p resource.PropertyPath, fs *[]CheckFailure) {
	if v.Kind() != resource.ArrayKind {
		mismatch(fs, p, "an array", v)
		return
	}
	for i, e := range v.Array() {
		checkValue(c.elem, e, append(p[:len(p):len(p)], i), fs)
	}
}

func (c sliceCodec) decode(v resource.Value, rv reflect.Value) error {
	if v.Kind() != resource.ArrayKind {
		return kindError("an array", v)
	}
	elems := v.Array()
	s := reflect.MakeSlice(rv.Type(), len(elems), len(elems))
	for i, e := range elems {
		if err := decodeValue(c.elem, e, s.Index(i)); err != nil {
			return prependPath(i, err)
		}
	}
	rv.Set(s)
	return nil
}

func (c sliceCodec) encode(rv reflect.Value) (resource.Value, error) {
	if rv.IsNil() {
		return resource.Null(), nil
	}
	elems := make([]resource.Value, rv.Len())
	for i := range elems {
		e, err := c.elem.encode(rv.Index(i))
		if err != nil {
			return resource.Value{}, prependPath(i, err)
		}
		elems[i] = e
	}
	return resource.NewArray(elems...), nil
}

func (c sliceCodec) withDefaults(v resource.Value) resource.Value {
	if v.Kind() != resource.ArrayKind {
		return v
	}
	elems := make([]resource.Value, len(v.Array()))
	for i, e := range v.Array() {
		elems[i] = defaultsOf(c.elem, e)
	}
	return resource.NewArray(elems...)
}

// mapCodec handles maps with string keys.
type mapCodec struct {
	elem codec
}

func (c mapCodec) schemaType() Type {
	e := c.elem.schemaType()
	return Type{Kind: TypeMap, Elem: &e}
}

func (c mapCodec) check(v resource.Value, p resource.PropertyPath, fs *[]CheckFailure) {
	if v.Kind() != resource.ObjectKind {
		mismatch(fs, p, "a map", v)
		return
	}
	o := v.Object()
	for _, k := range o.Keys() {
		checkValue(c.elem, o[k], append(p[:len(p):len(p)], k), fs)
	}
}

func (c mapCodec) decode(v resource.Value, rv reflect.Value) error {
	if v.Kind() != resource.ObjectKind {
		return kindError("a map", v)
	}
	m := reflect.MakeMapWithSize(rv.Type(), len(v.Object()))
	for k, e := range v.Object() {
		ev := reflect.New(rv.Type().Elem()).Elem()
		if err := decodeValue(c.elem, e, ev); err != nil {
			return prependPath(k, err)
		}
		m.SetMapIndex(reflect.ValueOf(k).Convert(rv.Type().Key()), ev)
	}
	rv.Set(m)
	return nil
}

func (c mapCodec) encode(rv reflect.Value) (resource.Value, error) {
	if rv.IsNil() {
		return resource.Null(), nil
	}
	o := make(resource.Object, rv.Len())
	for it := rv.MapRange(); it.Next(); {
		e, err := c.elem.encode(it.Value())
		if err != nil {
			return resource.Value{}, prependPath(it.Key().String(), err)
		}
		o[it.Key().String()] = e
	}
	return resource.NewObject(o), nil
}

func (c mapCodec) withDefaults(v resource.Value) resource.Value {
	if v.Kind() != resource.ObjectKind {
		return v
	}
	o := make(resource.Object, len(v.Object()))
	for k, e := range v.Object() {
		o[k] = defaultsOf(c.elem, e)
	}
	return resource.NewObject(o)
}
