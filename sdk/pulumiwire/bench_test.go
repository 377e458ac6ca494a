package pulumiwire

import (
	"testing"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// petState is what a plinth:random:Pet's state looks like: a few strings
// and numbers, one nested object.
var petState = resource.Object{
	"length": resource.NewNumber(2), "prefix": resource.NewString("p7"), "separator": resource.NewString("-"),
	"id": resource.NewString("p7-keen-otter"), "keepers": resource.NewObject(resource.Object{"a": resource.NewString("b")}),
}

func BenchmarkEncodeObject(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeObject(petState, Full()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeObject(b *testing.B) {
	s, err := EncodeObject(petState, Full())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeObject(s, Full()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendObject is BenchmarkEncodeObject's object written
// straight to the wire, as the Pulumi-protocol client sends it.
func BenchmarkAppendObject(b *testing.B) {
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		var err error
		if buf, err = AppendObject(buf[:0], petState, Full()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarshalEncodedObject is what the client did before
// AppendObject: EncodeObject, then the Struct's size and marshalling.
func BenchmarkMarshalEncodedObject(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s, err := EncodeObject(petState, Full())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := proto.Marshal(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeObjectBytes is BenchmarkDecodeObject's object read
// straight from the wire.
func BenchmarkDecodeObjectBytes(b *testing.B) {
	buf, err := AppendObject(nil, petState, Full())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeObjectBytes(buf, Full()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnmarshalDecodeObject is what the client and the plugin did
// before DecodeObjectBytes: unmarshal the Struct, then DecodeObject.
func BenchmarkUnmarshalDecodeObject(b *testing.B) {
	buf, err := AppendObject(nil, petState, Full())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s := &structpb.Struct{}
		if err := proto.Unmarshal(buf, s); err != nil {
			b.Fatal(err)
		}
		if _, err := DecodeObject(s, Full()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCodecUnmarshal is what the plugin does with a no-change
// preview's Diff request as it arrives: the Codec's split of its Structs
// from its other fields, then the three objects decoded from their bytes.
func BenchmarkCodecUnmarshal(b *testing.B) {
	c := NewCodec(&pb.DiffRequest{})
	var buf []byte
	var err error
	for _, num := range []protowire.Number{Fields.DiffOldInputs, Fields.DiffOlds, Fields.DiffNews} {
		if buf, err = AppendObjectField(buf, num, petState, Full()); err != nil {
			b.Fatal(err)
		}
	}
	buf = protowire.AppendString(protowire.AppendTag(buf, 2, protowire.BytesType), "urn:pulumi:dev::bench::plinth:random:Pet::pet7")
	b.ReportAllocs()
	for b.Loop() {
		m := &pb.DiffRequest{}
		if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(buf)}, m); err != nil {
			b.Fatal(err)
		}
		for _, num := range []protowire.Number{Fields.DiffOldInputs, Fields.DiffOlds, Fields.DiffNews} {
			if _, err := GetStructField(m, num).Decode(Full()); err != nil {
				b.Fatal(err)
			}
		}
	}
}
