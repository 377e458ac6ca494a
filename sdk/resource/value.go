package resource

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// Kind names the type of a Value.
type Kind uint8

// The kinds of value, as listed in the implementer's guide.
const (
	NullKind Kind = iota
	BoolKind
	NumberKind
	StringKind
	ArrayKind
	ObjectKind
	AssetKind
	ArchiveKind
	ReferenceKind
	UnknownKind
	SecretKind
)

var kindNames = [...]string{
	NullKind: "null", BoolKind: "bool", NumberKind: "number", StringKind: "string",
	ArrayKind: "array", ObjectKind: "object", AssetKind: "asset", ArchiveKind: "archive",
	ReferenceKind: "resource reference", UnknownKind: "unknown", SecretKind: "secret",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Object is an unordered map from property names to values. Iterate it in a
// stable order with Keys.
type Object map[string]Value

// Keys returns the object's property names in sorted order.
func (o Object) Keys() []string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Copy returns a shallow copy of the object.
func (o Object) Copy() Object {
	if o == nil {
		return nil
	}
	c := make(Object, len(o))
	for k, v := range o {
		c[k] = v
	}
	return c
}

// Value is an immutable property value. The zero Value is null.
//
// Numbers are IEEE-754 doubles; a number made from a decimal literal that a
// double cannot hold exactly (a 20-digit integer, say) also keeps the literal,
// so it round-trips with every digit.
//
// A Value is two words, 32 bytes: the kind is the dynamic type of x, not a
// field of its own. A stack's state is mostly small maps of values, whose
// every slot holds a Value, so each byte here costs eight times over in a
// map's group: at 48 bytes a two-property object took a 576-byte group,
// at 32 a 416-byte one.
type Value struct {
	str string // StringKind: the string; NumberKind: exact literal or ""
	// x is nil (null), a scalar (bool, string, unknown), a number, or
	// []Value, Object, *Asset, *Archive, *Reference, *Value (the element
	// of a secret).
	x any
}

// scalar is the x of the kinds that need no more than str: a constant
// stored in an interface costs no allocation.
type scalar uint8

const (
	scalarFalse scalar = iota
	scalarTrue
	scalarString
	scalarUnknown
)

var scalarKinds = [...]Kind{scalarFalse: BoolKind, scalarTrue: BoolKind, scalarString: StringKind, scalarUnknown: UnknownKind}

// number is the x of a number.
type number float64

// smallNumbers holds the integers 0-255 already in interfaces, so the
// commonest numbers (counts, lengths, ports below 256) cost no
// allocation. It is never written after initialisation.
var smallNumbers = func() (a [256]any) {
	for i := range a {
		a[i] = number(i)
	}
	return a
}()

// boxNumber returns f as an x.
func boxNumber(f float64) any {
	if f >= 0 && f < float64(len(smallNumbers)) && f == math.Trunc(f) && !math.Signbit(f) {
		return smallNumbers[int(f)]
	}
	return number(f)
}

// Null returns the null value.
func Null() Value { return Value{} }

// Unknown returns a value whose type and contents are not yet known.
func Unknown() Value { return Value{x: scalarUnknown} }

// NewBool returns a bool value.
func NewBool(b bool) Value {
	if b {
		return Value{x: scalarTrue}
	}
	return Value{x: scalarFalse}
}

// NewNumber returns a number value.
func NewNumber(f float64) Value { return Value{x: boxNumber(f)} }

// ParseNumber returns the number written as a decimal literal. If a double
// cannot represent it exactly the literal is kept, so no digit is lost.
func ParseNumber(literal string) (Value, error) {
	f, err := strconv.ParseFloat(literal, 64)
	if err != nil && !isRangeError(err) {
		return Value{}, fmt.Errorf("%q is not a number", literal)
	}
	v := Value{x: boxNumber(f)}
	if !exactFloat(f, literal) {
		v.str = literal
	}
	return v, nil
}

func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// exactFloat reports whether the double f says all that literal says: the
// literal has the same value as f's shortest decimal form. "0.1" does (it
// reads back as the same double); "12345678901234567891" does not.
func exactFloat(f float64, literal string) bool {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return false
	}
	const prec = 1024
	want, ok := new(big.Float).SetPrec(prec).SetString(literal)
	if !ok {
		return false
	}
	short, _ := new(big.Float).SetPrec(prec).SetString(formatFloat(f))
	return short.Cmp(want) == 0
}

// NewString returns a string value.
func NewString(s string) Value { return Value{str: s, x: scalarString} }

// NewArray returns an array value holding elems (not copied).
func NewArray(elems ...Value) Value {
	if elems == nil {
		elems = []Value{}
	}
	return Value{x: elems}
}

// NewObject returns an object value holding o (not copied).
func NewObject(o Object) Value {
	if o == nil {
		o = Object{}
	}
	return Value{x: o}
}

// NewAsset returns an asset value.
func NewAsset(a *Asset) Value { return Value{x: a} }

// NewArchive returns an archive value.
func NewArchive(a *Archive) Value { return Value{x: a} }

// NewReference returns a resource reference value.
func NewReference(r Reference) Value { return Value{x: &r} }

// MakeSecret marks v as secret. Marking a secret again changes nothing.
func MakeSecret(v Value) Value {
	if v.IsSecret() {
		return v
	}
	return Value{x: &v}
}

// Kind returns the value's kind.
func (v Value) Kind() Kind {
	switch x := v.x.(type) {
	case nil:
		return NullKind
	case scalar:
		return scalarKinds[x]
	case number:
		return NumberKind
	case Object:
		return ObjectKind
	case []Value:
		return ArrayKind
	case *Value:
		return SecretKind
	case *Asset:
		return AssetKind
	case *Archive:
		return ArchiveKind
	case *Reference:
		return ReferenceKind
	}
	panic(fmt.Sprintf("resource.Value holds a %T", v.x))
}

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.x == nil }

// IsUnknown reports whether v itself is unknown (see ContainsUnknowns).
func (v Value) IsUnknown() bool { return v.x == any(scalarUnknown) }

// IsSecret reports whether v itself is marked secret (see ContainsSecrets).
func (v Value) IsSecret() bool {
	_, ok := v.x.(*Value)
	return ok
}

// isString reports whether v is a string.
func (v Value) isString() bool { return v.x == any(scalarString) }

// Bool returns the value of a bool; false for any other kind.
func (v Value) Bool() bool { return v.x == any(scalarTrue) }

// Number returns the value of a number; 0 for any other kind.
func (v Value) Number() float64 {
	n, _ := v.x.(number)
	return float64(n)
}

// isNumber reports whether v is a number.
func (v Value) isNumber() bool {
	_, ok := v.x.(number)
	return ok
}

// BigNumber returns a number with every digit it was written with. A
// number held as a double stands for the double's shortest decimal form, so
// 1e16+2 written as "10000000000000002" and the double nearest it agree.
func (v Value) BigNumber() *big.Float {
	if !v.isNumber() {
		return nil
	}
	f, ok := new(big.Float).SetPrec(512).SetString(v.NumberLiteral())
	if !ok { // infinities and NaN have no decimal form
		return new(big.Float).SetFloat64(v.Number())
	}
	return f
}

// NumberLiteral formats a number with every digit it holds.
func (v Value) NumberLiteral() string {
	n, ok := v.x.(number)
	if !ok {
		return ""
	}
	if v.str != "" {
		return v.str
	}
	return formatFloat(float64(n))
}

// Int64 returns a number that is an integer within int64, exactly as
// NumberLiteral writes it (so a literal kept for its digits counts by
// them); ok is false for anything else: a fraction, an integer beyond
// int64, a value of another kind. A double up to 2^53 is its own
// shortest decimal, so the common case formats nothing.
func (v Value) Int64() (n int64, ok bool) {
	x, isNumber := v.x.(number)
	if !isNumber {
		return 0, false
	}
	if f := float64(x); v.str == "" && f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
		return int64(f), true
	}
	n, err := strconv.ParseInt(v.NumberLiteral(), 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// formatFloat writes a double as JSON does: the shortest digits that read
// back as the same double, with no exponent between 1e-6 and 1e21, so a
// million is 1000000 and not 1e+06.
func formatFloat(f float64) string {
	if a := math.Abs(f); a == 0 || (a >= 1e-6 && a < 1e21) {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// Str returns the value of a string; "" for any other kind.
func (v Value) Str() string {
	if !v.isString() {
		return ""
	}
	return v.str
}

// Array returns the elements of an array; nil for any other kind. The slice
// must not be modified.
func (v Value) Array() []Value {
	a, _ := v.x.([]Value)
	return a
}

// Object returns the properties of an object; nil for any other kind. The map
// must not be modified.
func (v Value) Object() Object {
	o, _ := v.x.(Object)
	return o
}

// Asset returns the asset; nil for any other kind.
func (v Value) Asset() *Asset {
	a, _ := v.x.(*Asset)
	return a
}

// Archive returns the archive; nil for any other kind.
func (v Value) Archive() *Archive {
	a, _ := v.x.(*Archive)
	return a
}

// Reference returns the resource reference; the zero Reference for any other kind.
func (v Value) Reference() Reference {
	if r, ok := v.x.(*Reference); ok {
		return *r
	}
	return Reference{}
}

// SecretElement returns the value inside a secret; v itself otherwise.
func (v Value) SecretElement() Value {
	if e, ok := v.x.(*Value); ok {
		return *e
	}
	return v
}

// ContainsUnknowns reports whether v or anything inside it is unknown.
func (v Value) ContainsUnknowns() bool {
	return v.any(func(e Value) bool { return e.IsUnknown() || refUnknown(e) })
}

func refUnknown(e Value) bool {
	r, ok := e.x.(*Reference)
	return ok && r.ID != nil && r.ID.IsUnknown()
}

// ContainsSecrets reports whether v or anything inside it is secret.
func (v Value) ContainsSecrets() bool {
	return v.any(func(e Value) bool { return e.IsSecret() })
}

// any reports whether pred holds for v or any value nested in it.
func (v Value) any(pred func(Value) bool) bool {
	if pred(v) {
		return true
	}
	switch x := v.x.(type) {
	case *Value:
		return x.any(pred)
	case []Value:
		for _, e := range x {
			if e.any(pred) {
				return true
			}
		}
	case Object:
		for _, e := range x {
			if e.any(pred) {
				return true
			}
		}
	}
	return false
}

// Unsecret returns v with every secret mark removed, deep, and whether it
// removed any.
func (v Value) Unsecret() (Value, bool) {
	if !v.ContainsSecrets() {
		return v, false
	}
	return v.Map(func(e Value) Value { return e.SecretElement() }), true
}

// Map rebuilds v bottom-up, replacing every value with f of it. Secret
// elements are mapped inside their secret.
func (v Value) Map(f func(Value) Value) Value {
	switch v.Kind() {
	case SecretKind:
		inner := v.SecretElement().Map(f)
		return f(Value{x: &inner})
	case ArrayKind:
		elems := make([]Value, len(v.Array()))
		for i, e := range v.Array() {
			elems[i] = e.Map(f)
		}
		return f(NewArray(elems...))
	case ObjectKind:
		o := make(Object, len(v.Object()))
		for k, e := range v.Object() {
			o[k] = e.Map(f)
		}
		return f(NewObject(o))
	}
	return f(v)
}

// Sticky returns result marked secret if any of inputs contains a secret:
// a value computed from a secret stays secret.
func Sticky(result Value, inputs ...Value) Value {
	for _, in := range inputs {
		if in.ContainsSecrets() {
			return MakeSecret(result)
		}
	}
	return result
}

// String renders v for humans and tests. Secrets are shown as [secret].
func (v Value) String() string {
	var b strings.Builder
	v.write(&b)
	return b.String()
}

func (v Value) write(b *strings.Builder) {
	switch v.Kind() {
	case NullKind:
		b.WriteString("null")
	case BoolKind:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case NumberKind:
		b.WriteString(v.NumberLiteral())
	case StringKind:
		b.WriteString(strconv.Quote(v.str))
	case ArrayKind:
		writeArray(b, v.Array())
	case ObjectKind:
		writeObject(b, v.Object())
	case AssetKind:
		b.WriteString(v.Asset().String())
	case ArchiveKind:
		b.WriteString(v.Archive().String())
	case ReferenceKind:
		b.WriteString(v.Reference().String())
	case UnknownKind:
		b.WriteString("[unknown]")
	case SecretKind:
		b.WriteString("[secret]")
	}
}

func writeArray(b *strings.Builder, elems []Value) {
	b.WriteByte('[')
	for i, e := range elems {
		if i > 0 {
			b.WriteString(", ")
		}
		e.write(b)
	}
	b.WriteByte(']')
}

func writeObject(b *strings.Builder, o Object) {
	b.WriteByte('{')
	for i, k := range o.Keys() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(k))
		b.WriteString(": ")
		o[k].write(b)
	}
	b.WriteByte('}')
}
