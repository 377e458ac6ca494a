package tfplugin

import (
	"encoding/binary"
	"math"
	"math/big"
	"slices"

	"github.com/zclconf/go-cty/cty"
)

// A fast path for encode: the msgpack that cty's encoder writes, byte for
// byte, appended to one buffer without its general encoder's machinery (a
// stream encoder per call, a conformance walk before the value is
// written, a sorted copy of every object's attribute names and a
// normalized string value for each name). Every PlanResourceChange sends
// a resource's configuration and prior state, and every Check encodes the
// configuration to validate it, so this runs a few times per resource.
//
// It writes only what is simple: known, unmarked values whose types hold
// no dynamic part, with ASCII attribute names. Anything else (an unknown
// anywhere, which cty encodes with its refinements; a marked value, which
// cty refuses; a value that does not conform to the type, which cty
// converts first) reports false, and encode hands the whole value to cty.
// TestFastMsgpackMatchesCty checks the bytes against cty's.

// msgpack format codes, as the msgpack specification names them.
const (
	mpNil     = 0xc0
	mpFalse   = 0xc2
	mpTrue    = 0xc3
	mpFloat64 = 0xcb
	mpUint8   = 0xcc
	mpUint16  = 0xcd
	mpUint32  = 0xce
	mpUint64  = 0xcf
	mpInt8    = 0xd0
	mpInt16   = 0xd1
	mpInt32   = 0xd2
	mpInt64   = 0xd3
	mpStr8    = 0xd9
	mpStr16   = 0xda
	mpStr32   = 0xdb
	mpArray16 = 0xdc
	mpArray32 = 0xdd
	mpMap16   = 0xde
	mpMap32   = 0xdf
	mpFixStr  = 0xa0
	mpFixArr  = 0x90
	mpFixMap  = 0x80
)

// fastMsgpack encodes v as type ty, or reports false if the value is
// outside what the fast path writes.
func fastMsgpack(v cty.Value, ty cty.Type) ([]byte, bool) {
	return appendMsgpack(make([]byte, 0, 128), v, ty)
}

func appendMsgpack(b []byte, v cty.Value, ty cty.Type) ([]byte, bool) {
	if v.IsMarked() || !v.IsKnown() || ty == cty.DynamicPseudoType {
		return b, false
	}
	if v.IsNull() {
		// cty writes nil for a null of any type, but converts a value
		// of another type first, which may fail: leave that to cty.
		return append(b, mpNil), v.Type().Equals(ty)
	}
	switch {
	case ty.IsPrimitiveType():
		if v.Type() != ty {
			return b, false
		}
		return appendPrimitive(b, v, ty)
	case ty.IsListType() && v.Type().IsListType(), ty.IsSetType() && v.Type().IsSetType():
		b = appendLen(b, v.LengthInt(), mpFixArr, mpArray16, mpArray32)
		return appendElements(b, v, ty.ElementType(), false)
	case ty.IsMapType() && v.Type().IsMapType():
		b = appendLen(b, v.LengthInt(), mpFixMap, mpMap16, mpMap32)
		return appendElements(b, v, ty.ElementType(), true)
	case ty.IsTupleType() && v.Type().IsTupleType():
		etys := ty.TupleElementTypes()
		if len(etys) != len(v.Type().TupleElementTypes()) {
			return b, false
		}
		b = appendLen(b, len(etys), mpFixArr, mpArray16, mpArray32)
		for i, ety := range etys {
			var ok bool
			if b, ok = appendMsgpack(b, v.Index(cty.NumberIntVal(int64(i))), ety); !ok {
				return b, false
			}
		}
		return b, true
	case ty.IsObjectType() && v.Type().IsObjectType():
		return appendObject(b, v, ty)
	}
	return b, false
}

// appendElements writes a list's, set's or map's elements in cty's order
// (a map's with their keys).
func appendElements(b []byte, v cty.Value, ety cty.Type, keyed bool) ([]byte, bool) {
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if keyed {
			b = appendString(b, k.AsString())
		}
		var ok bool
		if b, ok = appendMsgpack(b, e, ety); !ok {
			return b, false
		}
	}
	return b, true
}

// appendObject writes an object as a map of its attributes, by name in
// byte order, as cty does.
func appendObject(b []byte, v cty.Value, ty cty.Type) ([]byte, bool) {
	atys := ty.AttributeTypes()
	if len(v.Type().AttributeTypes()) != len(atys) {
		return b, false
	}
	var buf [16]string
	names := buf[:0]
	for name := range atys {
		if !ascii(name) || !v.Type().HasAttribute(name) {
			return b, false
		}
		names = append(names, name)
	}
	slices.Sort(names)
	b = appendLen(b, len(names), mpFixMap, mpMap16, mpMap32)
	for _, name := range names {
		b = appendString(b, name)
		var ok bool
		if b, ok = appendMsgpack(b, v.GetAttr(name), atys[name]); !ok {
			return b, false
		}
	}
	return b, true
}

// ascii reports whether s is all ASCII: cty writes an attribute name as a
// string value, in Unicode normal form C, which leaves ASCII as it is.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func appendPrimitive(b []byte, v cty.Value, ty cty.Type) ([]byte, bool) {
	switch ty {
	case cty.String:
		return appendString(b, v.AsString()), true
	case cty.Bool:
		if v.True() {
			return append(b, mpTrue), true
		}
		return append(b, mpFalse), true
	case cty.Number:
		return appendNumber(b, v.AsBigFloat()), true
	}
	return b, false
}

// appendNumber writes a number as cty does: an integer that fits in 64
// bits as the shortest msgpack integer, an infinity or a fraction that a
// float64 holds exactly as a float64, anything else as its decimal text.
func appendNumber(b []byte, f *big.Float) []byte {
	if f.IsInf() {
		return appendFloat64(b, math.Inf(f.Sign()))
	}
	if i, acc := f.Int64(); acc == big.Exact {
		return appendInt(b, i)
	}
	if x, acc := f.Float64(); acc == big.Exact && !f.IsInt() {
		return appendFloat64(b, x)
	}
	return appendString(b, f.Text('f', -1))
}

func appendFloat64(b []byte, x float64) []byte {
	return binary.BigEndian.AppendUint64(append(b, mpFloat64), math.Float64bits(x))
}

// appendInt writes n in the fewest bytes, as msgpack's compact integers
// (which cty asks for) do: non-negative numbers as unsigned.
func appendInt(b []byte, n int64) []byte {
	switch {
	case n >= 0 && n <= math.MaxInt8:
		return append(b, byte(n))
	case n >= 0 && n <= math.MaxUint8:
		return append(b, mpUint8, byte(n))
	case n >= 0 && n <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(b, mpUint16), uint16(n))
	case n >= 0 && n <= math.MaxUint32:
		return binary.BigEndian.AppendUint32(append(b, mpUint32), uint32(n))
	case n >= 0:
		return binary.BigEndian.AppendUint64(append(b, mpUint64), uint64(n))
	case n >= -32:
		return append(b, byte(n))
	case n >= math.MinInt8:
		return append(b, mpInt8, byte(n))
	case n >= math.MinInt16:
		return binary.BigEndian.AppendUint16(append(b, mpInt16), uint16(n))
	case n >= math.MinInt32:
		return binary.BigEndian.AppendUint32(append(b, mpInt32), uint32(n))
	}
	return binary.BigEndian.AppendUint64(append(b, mpInt64), uint64(n))
}

func appendString(b []byte, s string) []byte {
	n := len(s)
	switch {
	case n < 32:
		b = append(b, mpFixStr|byte(n))
	case n <= math.MaxUint8:
		b = append(b, mpStr8, byte(n))
	case n <= math.MaxUint16:
		b = binary.BigEndian.AppendUint16(append(b, mpStr16), uint16(n))
	default:
		b = binary.BigEndian.AppendUint32(append(b, mpStr32), uint32(n))
	}
	return append(b, s...)
}

// appendLen writes an array's or map's length: in its fix code below 16,
// else with its 16- or 32-bit code.
func appendLen(b []byte, n int, fix, c16, c32 byte) []byte {
	switch {
	case n < 16:
		return append(b, fix|byte(n))
	case n <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(b, c16), uint16(n))
	}
	return binary.BigEndian.AppendUint32(append(b, c32), uint32(n))
}
