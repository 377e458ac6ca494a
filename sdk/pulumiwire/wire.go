package pulumiwire

import (
	"math"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Field numbers of google.protobuf.Struct, its map entries, Value and
// ListValue (google/protobuf/struct.proto).
const (
	structFields   protowire.Number = 1
	entryKey       protowire.Number = 1
	entryValue     protowire.Number = 2
	valueNull      protowire.Number = 1
	valueNumber    protowire.Number = 2
	valueString    protowire.Number = 3
	valueBool      protowire.Number = 4
	valueStruct    protowire.Number = 5
	valueList      protowire.Number = 6
	listValues     protowire.Number = 1
	maxVarintBytes                  = 10
)

// AppendObject appends o encoded as a google.protobuf.Struct message (its
// fields, without a tag or length) to b: what proto.Marshal makes of
// EncodeObject's Struct, without building it. Null, booleans, numbers,
// strings, arrays, objects and secrets are written directly; other values
// are built as EncodeValue builds them and marshalled. A nil object
// encodes as an empty one. Errors are EncodeObject's.
func AppendObject(b []byte, o resource.Object, opts Options) ([]byte, error) {
	return appendFields(b, top(), o, opts)
}

// AppendObjectField appends o as a message's google.protobuf.Struct field
// num: its tag, its length and AppendObject's bytes.
func AppendObjectField(b []byte, num protowire.Number, o resource.Object, opts Options) ([]byte, error) {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = open(b)
	start := len(b)
	b, err := appendFields(b, top(), o, opts)
	if err != nil {
		return nil, err
	}
	return closeAt(b, start), nil
}

func appendFields(b []byte, path at, o resource.Object, opts Options) ([]byte, error) {
	var err error
	for k, v := range o {
		if b, err = appendEntry(b, path.key(k), k, v, opts); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// appendEntry appends one of a Struct's fields: a map entry of k and v.
func appendEntry(b []byte, path at, k string, v resource.Value, opts Options) ([]byte, error) {
	b = protowire.AppendTag(b, structFields, protowire.BytesType)
	b = open(b)
	entry := len(b)
	b = protowire.AppendTag(b, entryKey, protowire.BytesType)
	b = protowire.AppendString(b, k)
	b = protowire.AppendTag(b, entryValue, protowire.BytesType)
	b = open(b)
	value := len(b)
	b, err := appendValue(b, path, v, opts)
	if err != nil {
		return nil, err
	}
	return closeAt(closeAt(b, value), entry), nil
}

// open reserves one byte for the length of a message about to be
// appended: the message starts at the length of the slice returned;
// closeAt writes its length.
func open(b []byte) []byte { return append(b, 0) }

// closeAt writes the length of the message that starts at start, after the
// byte open reserved, moving the message up if its length takes more
// than one byte.
func closeAt(b []byte, start int) []byte {
	n := len(b) - start
	w := protowire.SizeVarint(uint64(n))
	if w > 1 {
		var pad [maxVarintBytes]byte
		b = append(b, pad[:w-1]...)
		copy(b[start+w-1:], b[start:start+n])
	}
	protowire.AppendVarint(b[:start-1], uint64(n))
	return b
}

// appendValue appends v as a google.protobuf.Value message.
func appendValue(b []byte, path at, v resource.Value, opts Options) ([]byte, error) {
	switch v.Kind() {
	case resource.NullKind:
		return protowire.AppendVarint(protowire.AppendTag(b, valueNull, protowire.VarintType), 0), nil
	case resource.BoolKind:
		return protowire.AppendVarint(protowire.AppendTag(b, valueBool, protowire.VarintType), protowire.EncodeBool(v.Bool())), nil
	case resource.NumberKind:
		return protowire.AppendFixed64(protowire.AppendTag(b, valueNumber, protowire.Fixed64Type), math.Float64bits(v.Number())), nil
	case resource.StringKind:
		if s := v.Str(); utf8.ValidString(s) {
			return protowire.AppendString(protowire.AppendTag(b, valueString, protowire.BytesType), s), nil
		}
	case resource.ArrayKind:
		return appendList(b, path, v.Array(), opts)
	case resource.ObjectKind:
		b = protowire.AppendTag(b, valueStruct, protowire.BytesType)
		b = open(b)
		start := len(b)
		b, err := appendFields(b, path, v.Object(), opts)
		if err != nil {
			return nil, err
		}
		return closeAt(b, start), nil
	case resource.SecretKind:
		if !opts.Secrets || !opts.Outputs {
			return appendSecret(b, path, v.SecretElement(), opts)
		}
	}
	w, err := encodeValue(path, v, opts)
	if err != nil {
		return nil, err
	}
	return proto.MarshalOptions{}.MarshalAppend(b, w)
}

func appendList(b []byte, path at, elems []resource.Value, opts Options) ([]byte, error) {
	b = protowire.AppendTag(b, valueList, protowire.BytesType)
	b = open(b)
	list := len(b)
	var err error
	for i, e := range elems {
		b = protowire.AppendTag(b, listValues, protowire.BytesType)
		b = open(b)
		start := len(b)
		if b, err = appendValue(b, path.index(i), e, opts); err != nil {
			return nil, err
		}
		b = closeAt(b, start)
	}
	return closeAt(b, list), nil
}

// appendSecret appends a secret as encodeSecret encodes it (not as an
// output value): its element alone for a peer that does not accept
// secrets, else the secret object.
func appendSecret(b []byte, path at, elem resource.Value, opts Options) ([]byte, error) {
	if !opts.Secrets {
		return appendValue(b, path, elem, opts)
	}
	b = protowire.AppendTag(b, valueStruct, protowire.BytesType)
	b = open(b)
	start := len(b)
	b, err := appendEntry(b, path, SigKey, resource.NewString(SecretSig), opts)
	if err != nil {
		return nil, err
	}
	if b, err = appendEntry(b, path, "value", elem, opts); err != nil {
		return nil, err
	}
	return closeAt(b, start), nil
}
