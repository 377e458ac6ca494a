package pulumiwire

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/mem"
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
