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
	b := data.Materialize() // a copy of its own: the unknown fields keep parts of it
	rest, structs, ok := split(b, nums)
	if !ok {
		return proto.Unmarshal(b, m) // malformed: protobuf says how
	}
	if err := proto.Unmarshal(rest, m); err != nil {
		return err
	}
	r := m.ProtoReflect()
	r.SetUnknown(append(r.GetUnknown(), structs...))
	return nil
}

// split separates the fields numbered nums from the others; ok is false
// if b is not a sequence of well-formed fields.
func split(b []byte, nums map[protowire.Number]bool) (rest, structs []byte, ok bool) {
	rest = make([]byte, 0, len(b))
	for len(b) > 0 {
		num, typ, m := protowire.ConsumeTag(b)
		if m < 0 {
			return nil, nil, false
		}
		l := protowire.ConsumeFieldValue(num, typ, b[m:])
		if l < 0 {
			return nil, nil, false
		}
		if nums[num] && typ == protowire.BytesType {
			structs = append(structs, b[:m+l]...)
		} else {
			rest = append(rest, b[:m+l]...)
		}
		b = b[m+l:]
	}
	return rest, structs, true
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
