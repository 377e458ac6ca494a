package pulumiwire

import (
	"math"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// DecodeObjectBytes decodes a google.protobuf.Struct message's bytes (its
// fields, without a tag or length) as DecodeObject decodes the Struct
// proto.Unmarshal makes of them, without building it. Plain values are
// read directly; a value in any other form (a special object, an encoding
// protobuf merges or rejects) is unmarshalled and decoded as before, so
// results and errors are DecodeObject's.
func DecodeObjectBytes(b []byte, opts Options) (resource.Object, error) {
	return decodeStructBytes(top(), b, opts)
}

// decodeStructBytes decodes a Struct's bytes; special objects fall back.
func decodeStructBytes(path at, b []byte, opts Options) (resource.Object, error) {
	n, plain := plainStruct(b)
	if !plain {
		s := &structpb.Struct{}
		if err := proto.Unmarshal(b, s); err != nil {
			return nil, fail(path, "malformed object: %v", err)
		}
		return decodeFields(path, s.GetFields(), opts)
	}
	o := make(resource.Object, n)
	for len(b) > 0 {
		_, _, m := protowire.ConsumeTag(b)
		entry, l := protowire.ConsumeBytes(b[m:])
		b = b[m+l:]
		kb, v := splitEntry(entry)
		k := string(kb)
		val, err := decodeValueBytes(path.key(k), v, opts)
		if err != nil {
			return nil, err
		}
		o[k] = val
	}
	return o, nil
}

// plainStruct reports whether b is a plain object's Struct in the form
// decodeStructBytes reads (well-formed map entries of a valid UTF-8 key
// and a value each, none under the signature key), and how many entries
// it has.
func plainStruct(b []byte) (int, bool) {
	n := 0
	for len(b) > 0 {
		num, typ, m := protowire.ConsumeTag(b)
		if m < 0 || num != structFields || typ != protowire.BytesType {
			return 0, false
		}
		entry, l := protowire.ConsumeBytes(b[m:])
		if l < 0 {
			return 0, false
		}
		b = b[m+l:]
		k, v := splitEntry(entry)
		if v == nil || string(k) == SigKey || !utf8.Valid(k) {
			return 0, false
		}
		n++
	}
	return n, true
}

// splitEntry returns a map entry's key and value bytes, or a nil value
// if the entry is not one key then one value. The key is returned as
// bytes: plainStruct checks every key before decodeStructBytes makes
// strings of them.
func splitEntry(b []byte) ([]byte, []byte) {
	num, typ, m := protowire.ConsumeTag(b)
	if m < 0 || num != entryKey || typ != protowire.BytesType {
		return nil, nil
	}
	k, l := protowire.ConsumeBytes(b[m:])
	if l < 0 {
		return nil, nil
	}
	b = b[m+l:]
	num, typ, m = protowire.ConsumeTag(b)
	if m < 0 || num != entryValue || typ != protowire.BytesType {
		return nil, nil
	}
	v, l := protowire.ConsumeBytes(b[m:])
	if l < 0 || m+l != len(b) {
		return nil, nil
	}
	if v == nil {
		v = []byte{} // present, if empty
	}
	return k, v
}

// decodeValueBytes decodes a Value's bytes: one kind, read directly, or
// anything else unmarshalled and decoded as before.
func decodeValueBytes(path at, b []byte, opts Options) (resource.Value, error) {
	num, typ, m := protowire.ConsumeTag(b)
	if m > 0 {
		switch body := b[m:]; {
		case num == valueNull && typ == protowire.VarintType:
			if _, l := protowire.ConsumeVarint(body); l == len(body) {
				return resource.Null(), nil
			}
		case num == valueBool && typ == protowire.VarintType:
			if x, l := protowire.ConsumeVarint(body); l == len(body) {
				return resource.NewBool(x != 0), nil
			}
		case num == valueNumber && typ == protowire.Fixed64Type:
			if x, l := protowire.ConsumeFixed64(body); l == len(body) {
				return resource.NewNumber(math.Float64frombits(x)), nil
			}
		case num == valueString && typ == protowire.BytesType:
			if sb, l := protowire.ConsumeBytes(body); l == len(body) && utf8.Valid(sb) {
				if s := string(sb); !IsUnknownSentinel(s) {
					return resource.NewString(s), nil
				}
				return decodeUnknown(path, opts)
			}
		case num == valueStruct && typ == protowire.BytesType:
			if s, l := protowire.ConsumeBytes(body); l == len(body) {
				if _, plain := plainStruct(s); plain {
					o, err := decodeStructBytes(path, s, opts)
					return resource.NewObject(o), err
				}
			}
		case num == valueList && typ == protowire.BytesType:
			if s, l := protowire.ConsumeBytes(body); l == len(body) {
				if v, ok, err := decodeListBytes(path, s, opts); ok {
					return v, err
				}
			}
		}
	}
	w := &structpb.Value{}
	if err := proto.Unmarshal(b, w); err != nil {
		return resource.Value{}, fail(path, "malformed value: %v", err)
	}
	return decodeValue(path, w, opts)
}

// decodeListBytes decodes a ListValue's bytes if they are only its
// values; ok is false for any other form.
func decodeListBytes(path at, b []byte, opts Options) (v resource.Value, ok bool, err error) {
	var elems []resource.Value
	for i := 0; len(b) > 0; i++ {
		num, typ, m := protowire.ConsumeTag(b)
		if m < 0 || num != listValues || typ != protowire.BytesType {
			return resource.Value{}, false, nil
		}
		e, l := protowire.ConsumeBytes(b[m:])
		if l < 0 {
			return resource.Value{}, false, nil
		}
		b = b[m+l:]
		ev, err := decodeValueBytes(path.index(i), e, opts)
		if err != nil {
			return resource.Value{}, true, err
		}
		elems = append(elems, ev)
	}
	return resource.NewArray(elems...), true, nil
}
