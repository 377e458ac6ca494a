package pulumiwire

import (
	"fmt"

	"google.golang.org/grpc/encoding"
	_ "google.golang.org/grpc/encoding/proto" // registers the codec Codec wraps
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Codec is gRPC's protobuf codec, except that in the messages it is made
// for it leaves the google.protobuf.Struct fields unparsed: their bytes
// (tag, length and Struct, as on the wire) become the message's unknown
// fields, for GetStructField to decode with DecodeObjectBytes, and the
// fields stay nil. Parsing a Struct into a tree of messages by reflection
// and decoding the tree cost more than the rest of a call. Give it to a
// client with grpc.ForceCodecV2 and to a server with
// grpc.ForceServerCodecV2; every reader of those messages' Struct fields
// must use GetStructField.
type Codec struct {
	proto   encoding.CodecV2
	structs map[protoreflect.FullName]map[protowire.Number]bool
}

var _ encoding.CodecV2 = (*Codec)(nil)

// NewCodec makes a Codec that leaves the top-level Struct fields of msgs
// unparsed.
func NewCodec(msgs ...proto.Message) *Codec {
	c := &Codec{proto: encoding.GetCodecV2("proto"), structs: map[protoreflect.FullName]map[protowire.Number]bool{}}
	for _, m := range msgs {
		d := m.ProtoReflect().Descriptor()
		nums := map[protowire.Number]bool{}
		for i := 0; i < d.Fields().Len(); i++ {
			if f := d.Fields().Get(i); isStruct(f) {
				nums[f.Number()] = true
			}
		}
		c.structs[d.FullName()] = nums
	}
	return c
}

func isStruct(f protoreflect.FieldDescriptor) bool {
	return f.Message() != nil && f.Message().FullName() == "google.protobuf.Struct" && !f.IsList() && !f.IsMap()
}

// Name is the protobuf codec's: the peer sees no difference.
func (c *Codec) Name() string { return c.proto.Name() }

// Marshal marshals v as the protobuf codec does.
func (c *Codec) Marshal(v any) (mem.BufferSlice, error) { return c.proto.Marshal(v) }

// Unmarshal unmarshals data into v, leaving its Struct fields' bytes as
// its unknown fields if it is one of the Codec's messages.
func (c *Codec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := v.(proto.Message)
	if !ok {
		return c.proto.Unmarshal(data, v)
	}
	nums := c.structs[m.ProtoReflect().Descriptor().FullName()]
	if nums == nil {
		return c.proto.Unmarshal(data, v)
	}
	b := contiguous(data)
	out, n, ok := split(b, nums)
	if !ok {
		return proto.Unmarshal(b, m) // malformed: protobuf says how
	}
	if err := proto.Unmarshal(out[:n], m); err != nil {
		return err
	}
	r := m.ProtoReflect()
	structs := out[n:]
	if u := r.GetUnknown(); len(u) > 0 {
		structs = append(u[:len(u):len(u)], structs...)
	}
	if len(structs) > 0 {
		r.SetUnknown(structs)
	}
	return nil
}

// contiguous returns data's bytes in one slice: its only buffer's, read
// in place, or a copy of its buffers joined. Either is valid only until
// the caller frees data: split copies what the message keeps.
func contiguous(data mem.BufferSlice) []byte {
	if len(data) == 1 {
		return data[0].ReadOnlyData()
	}
	return data.Materialize()
}

// split copies b into a slice of its own, the fields numbered nums last:
// out[:n] holds the other fields and out[n:] those, each group in its
// order in b. ok is false if b is not a sequence of well-formed fields.
// The message keeps parts of out (its Struct fields' bytes as unknown
// fields), so out is exactly as long as b and made once.
func split(b []byte, nums map[protowire.Number]bool) (out []byte, n int, ok bool) {
	for rest := b; len(rest) > 0; {
		l, isStruct := nextField(rest, nums)
		if l < 0 {
			return nil, 0, false
		}
		if !isStruct {
			n += l
		}
		rest = rest[l:]
	}
	out = make([]byte, len(b))
	others, structs := out[:0], out[n:n]
	for len(b) > 0 {
		l, isStruct := nextField(b, nums)
		if isStruct {
			structs = append(structs, b[:l]...)
		} else {
			others = append(others, b[:l]...)
		}
		b = b[l:]
	}
	return out, n, true
}

// nextField returns the length (tag included) of b's first field, and
// whether it is one of the Struct fields nums; l is negative if the field
// is malformed.
func nextField(b []byte, nums map[protowire.Number]bool) (l int, isStruct bool) {
	num, typ, m := protowire.ConsumeTag(b)
	if m < 0 {
		return -1, false
	}
	v := protowire.ConsumeFieldValue(num, typ, b[m:])
	if v < 0 {
		return -1, false
	}
	return m + v, nums[num] && typ == protowire.BytesType
}

// StructFieldNumber returns the number of m's google.protobuf.Struct field
// name. It panics if m has none: a change of generated code would show at
// start-up.
func StructFieldNumber(m proto.Message, name protoreflect.Name) protowire.Number {
	f := m.ProtoReflect().Descriptor().Fields().ByName(name)
	if f == nil || !isStruct(f) {
		panic(fmt.Sprintf("pulumiwire: %s has no google.protobuf.Struct field %q", m.ProtoReflect().Descriptor().FullName(), name))
	}
	return f.Number()
}

// StructField is a message's google.protobuf.Struct field: parsed, or
// its bytes as Codec left them.
type StructField struct {
	parsed *structpb.Struct
	raw    []byte
	isRaw  bool
}

// GetStructField returns m's Struct field num: the field if it is set,
// else the bytes Codec left in m's unknown fields (the Struct protobuf
// would have parsed: its occurrences merged), else an absent field. It
// panics if m has no Struct field num.
func GetStructField(m proto.Message, num protowire.Number) StructField {
	r := m.ProtoReflect()
	f := r.Descriptor().Fields().ByNumber(num)
	if f == nil || !isStruct(f) {
		panic(fmt.Sprintf("pulumiwire: %s has no google.protobuf.Struct field %d", r.Descriptor().FullName(), num))
	}
	if r.Has(f) {
		return StructField{parsed: r.Get(f).Message().Interface().(*structpb.Struct)}
	}
	var sf StructField
	for b := r.GetUnknown(); len(b) > 0; {
		n, typ, m := protowire.ConsumeTag(b)
		if m < 0 {
			break
		}
		l := protowire.ConsumeFieldValue(n, typ, b[m:])
		if l < 0 {
			break
		}
		if n == num && typ == protowire.BytesType {
			body, _ := protowire.ConsumeBytes(b[m:])
			if sf.isRaw {
				sf.raw = append(sf.raw[:len(sf.raw):len(sf.raw)], body...)
			} else {
				sf.raw, sf.isRaw = body, true
			}
		}
		b = b[m+l:]
	}
	return sf
}

// Present reports whether the message has the field.
func (f StructField) Present() bool { return f.parsed != nil || f.isRaw }

// Size is the Struct's size in bytes: as marshalled, or as received.
func (f StructField) Size() int {
	if f.isRaw {
		return len(f.raw)
	}
	return proto.Size(f.parsed)
}

// Decode decodes the Struct as DecodeObject does; an absent field decodes
// as a nil object.
func (f StructField) Decode(opts Options) (resource.Object, error) {
	if f.isRaw {
		return DecodeObjectBytes(f.raw, opts)
	}
	return DecodeObject(f.parsed, opts)
}
