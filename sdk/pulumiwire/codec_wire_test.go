package pulumiwire

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"
	"pgregory.net/rapid"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// viaCodec marshals in and unmarshals it into out with c.
func viaCodec(t interface{ Fatal(...any) }, c *Codec, in, out proto.Message) {
	data, err := c.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(data.Materialize())}, out); err != nil {
		t.Fatal(err)
	}
}

// TestCodecLeavesStructs: in the messages the codec is made for, a
// Struct field arrives as bytes that GetStructField decodes as the parsed
// field would; other fields, and other messages, arrive parsed.
func TestCodecLeavesStructs(t *testing.T) {
	c := NewCodec(&structpb.Value{})
	rapid.Check(t, func(t *rapid.T) {
		sendOpts := drawOptions(t)
		sendOpts.RejectUnknowns = false
		s, err := EncodeObject(genObject(false).Draw(t, "object"), sendOpts)
		if err != nil {
			t.Skip("not encodable:", err)
		}
		got := &structpb.Value{}
		viaCodec(t, c, structpb.NewStructValue(s), got)
		if got.GetStructValue() != nil {
			t.Fatalf("the codec parsed the Struct field")
		}
		f := GetStructField(got, 5)
		if !f.Present() || f.Size() != proto.Size(s) {
			t.Fatalf("field present %v, size %d; want present, size %d", f.Present(), f.Size(), proto.Size(s))
		}
		opts := drawOptions(t)
		want, wantErr := DecodeObject(s, opts)
		o, gotErr := f.Decode(opts)
		if (gotErr != nil) != (wantErr != nil) {
			t.Fatalf("errors differ: parsed %v, left as bytes %v", wantErr, gotErr)
		}
		if diff := cmp.Diff(canonObject(want), canonObject(o)); gotErr == nil && diff != "" {
			t.Fatalf("(-parsed +left as bytes):\n%s", diff)
		}
	})

	// Another message: parsed as by the protobuf codec.
	list := &structpb.ListValue{Values: []*structpb.Value{structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"a": structpb.NewNumberValue(1)}})}}
	got := &structpb.ListValue{}
	viaCodec(t, c, list, got)
	if diff := cmp.Diff(list, got, protocmp.Transform()); diff != "" {
		t.Errorf("a message the codec is not made for (-sent +received):\n%s", diff)
	}
}

// TestStructFieldForms: a parsed field, an absent one, and one sent twice
// (protobuf merges the two).
func TestStructFieldForms(t *testing.T) {
	c := NewCodec(&structpb.Value{})
	parsed := structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"a": structpb.NewStringValue("x")}})
	if o, err := GetStructField(parsed, 5).Decode(Full()); err != nil || !o.Equal(resource.Object{"a": resource.NewString("x")}) {
		t.Errorf("parsed field: %v, %v", o, err)
	}
	absent := &structpb.Value{}
	viaCodec(t, c, structpb.NewNumberValue(1), absent)
	if f := GetStructField(absent, 5); f.Present() {
		t.Errorf("absent field is present")
	} else if o, err := f.Decode(Full()); o != nil || err != nil {
		t.Errorf("absent field decodes as %v, %v; want nil", o, err)
	}
	one, err := AppendObjectField(nil, 5, resource.Object{"a": resource.NewString("x"), "b": resource.NewNumber(1)}, Full())
	if err != nil {
		t.Fatal(err)
	}
	two, err := AppendObjectField(one, 5, resource.Object{"b": resource.NewNumber(2), "c": resource.Null()}, Full())
	if err != nil {
		t.Fatal(err)
	}
	want := &structpb.Value{}
	if err := proto.Unmarshal(two, want); err != nil {
		t.Fatal(err)
	}
	got := &structpb.Value{}
	if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(two)}, got); err != nil {
		t.Fatal(err)
	}
	wantObj, _ := DecodeObject(want.GetStructValue(), Full())
	gotObj, err := GetStructField(got, 5).Decode(Full())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(canonObject(wantObj), canonObject(gotObj)); diff != "" {
		t.Errorf("merged field (-protobuf +codec):\n%s", diff)
	}
}

// TestCodecSplitsInterleavedFields: Struct fields between, before and
// after the others, a field the descriptor does not know, and the message
// arriving in several buffers: the other fields parse as protobuf parses
// them, the unknown field is kept, and each Struct decodes as sent, even
// after the received buffers are overwritten (gRPC reuses them once
// Unmarshal returns, so the message must keep nothing of them).
func TestCodecSplitsInterleavedFields(t *testing.T) {
	c := NewCodec(&pb.DiffRequest{})
	olds := resource.Object{"a": resource.NewString("x"), "n": resource.NewNumber(1)}
	news := resource.Object{"a": resource.NewString("y"), "keepers": resource.NewObject(resource.Object{"k": resource.NewBool(true)})}
	var b []byte
	var err error
	if b, err = AppendObjectField(b, Fields.DiffNews, news, Full()); err != nil {
		t.Fatal(err)
	}
	b = protowire.AppendString(protowire.AppendTag(b, 2, protowire.BytesType), "urn:pulumi:dev::p::t::n")
	if b, err = AppendObjectField(b, Fields.DiffOlds, olds, Full()); err != nil {
		t.Fatal(err)
	}
	b = protowire.AppendString(protowire.AppendTag(b, 99, protowire.BytesType), "from a newer peer")
	b = protowire.AppendString(protowire.AppendTag(b, 1, protowire.BytesType), "id-1")
	want := &pb.DiffRequest{}
	if err := proto.Unmarshal(b, want); err != nil {
		t.Fatal(err)
	}
	tests := map[string][]int{"one buffer": nil, "several buffers": {7, 30}}
	for name, cuts := range tests {
		t.Run(name, func(t *testing.T) {
			received := append([]byte(nil), b...)
			var data mem.BufferSlice
			start := 0
			for _, end := range append(cuts, len(received)) {
				data = append(data, mem.SliceBuffer(received[start:end]))
				start = end
			}
			got := &pb.DiffRequest{}
			if err := c.Unmarshal(data, got); err != nil {
				t.Fatal(err)
			}
			for i := range received {
				received[i] = 0xff
			}
			if got.GetId() != want.GetId() || got.GetUrn() != want.GetUrn() || got.GetOlds() != nil || got.GetNews() != nil {
				t.Errorf("parsed id %q urn %q olds %v news %v; want id %q urn %q and the Structs left as bytes",
					got.GetId(), got.GetUrn(), got.GetOlds(), got.GetNews(), want.GetId(), want.GetUrn())
			}
			if !strings.Contains(string(got.ProtoReflect().GetUnknown()), "from a newer peer") {
				t.Errorf("the unknown field 99 was dropped")
			}
			for num, o := range map[protowire.Number]resource.Object{Fields.DiffOlds: olds, Fields.DiffNews: news} {
				dec, err := GetStructField(got, num).Decode(Full())
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(canonObject(o), canonObject(dec)); diff != "" {
					t.Errorf("field %d (-sent +received):\n%s", num, diff)
				}
			}
		})
	}
}
