package pulumiwire

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"
	"pgregory.net/rapid"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestAppendObjectMatchesEncodeObject: AppendObject's bytes are the
// Struct EncodeObject builds, for every kind of value and option, and it
// fails where EncodeObject fails.
func TestAppendObjectMatchesEncodeObject(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := genObject(true).Draw(t, "object")
		opts := drawOptions(t)
		want, wantErr := EncodeObject(o, opts)
		prefix := []byte("prefix")
		b, gotErr := AppendObject(prefix, o, opts)
		if (gotErr != nil) != (wantErr != nil) {
			t.Fatalf("errors differ: EncodeObject %v, AppendObject %v", wantErr, gotErr)
		}
		if gotErr != nil {
			return
		}
		if !strings.HasPrefix(string(b), "prefix") {
			t.Fatalf("AppendObject overwrote what it appends to: %q", b)
		}
		got := &structpb.Struct{}
		if err := proto.Unmarshal(b[len(prefix):], got); err != nil {
			t.Fatalf("AppendObject wrote what does not unmarshal: %v", err)
		}
		if want == nil {
			want = &structpb.Struct{}
		}
		if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
			t.Fatalf("AppendObject differs from EncodeObject (-EncodeObject +AppendObject):\n%s", diff)
		}
	})
}

// TestAppendObjectLengths: messages of every length class (one-, two- and
// three-byte lengths), nested, come out whole.
func TestAppendObjectLengths(t *testing.T) {
	for _, n := range []int{0, 1, 120, 127, 128, 200, 16383, 16384, 70000} {
		long := resource.NewString(strings.Repeat("x", n))
		o := resource.Object{"a": resource.NewArray(resource.NewObject(resource.Object{"s": long, "n": resource.NewNumber(1)}), long),
			"s": resource.MakeSecret(long)}
		b, err := AppendObject(nil, o, Full())
		if err != nil {
			t.Fatal(err)
		}
		got := &structpb.Struct{}
		if err := proto.Unmarshal(b, got); err != nil {
			t.Fatalf("length %d: %v", n, err)
		}
		want, _ := EncodeObject(o, Full())
		if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
			t.Errorf("length %d (-want +got):\n%s", n, diff)
		}
	}
}

// TestAppendObjectErrors: AppendObject's errors are EncodeObject's, with
// the path of the value in error.
func TestAppendObjectErrors(t *testing.T) {
	badID := resource.NewNumber(3)
	tests := map[string]struct {
		o    resource.Object
		opts Options
	}{
		"byte string refused": {resource.Object{"data": resource.NewArray(resource.NewString("ok"), resource.NewString("\xff"))}, Options{}},
		"unknown refused":     {resource.Object{"args": resource.NewObject(resource.Object{"x.y": resource.Unknown()})}, Options{RejectUnknowns: true}},
		"unknown in a secret": {resource.Object{"s": resource.MakeSecret(resource.NewArray(resource.Unknown()))}, Options{Secrets: true, RejectUnknowns: true}},
		"bad reference ID":    {resource.Object{"r": resource.NewArray(resource.NewReference(resource.Reference{URN: "urn:pulumi:a::b::c:d:E::f", ID: &badID}))}, Full()},
		"after a deeper sibling": {resource.Object{"l": resource.NewArray(deep(10, resource.NewString("ok")), resource.NewObject(resource.Object{"z": resource.Unknown()}))},
			Options{RejectUnknowns: true}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, want := EncodeObject(tc.o, tc.opts)
			_, got := AppendObject(nil, tc.o, tc.opts)
			if want == nil || got == nil || got.Error() != want.Error() {
				t.Fatalf("AppendObject: %v; EncodeObject: %v; want the same error", got, want)
			}
		})
	}
}

// TestAppendObjectField: the field comes out as a message's Struct field
// (google.protobuf.Value's struct_value, number 5, here), after what was
// already there.
func TestAppendObjectField(t *testing.T) {
	o := resource.Object{"a": resource.NewString(strings.Repeat("x", 300)), "n": resource.NewNumber(2)}
	b := protowire.AppendVarint(protowire.AppendTag(nil, 4, protowire.VarintType), 1) // bool_value, overridden
	b, err := AppendObjectField(b, 5, o, Full())
	if err != nil {
		t.Fatal(err)
	}
	got := &structpb.Value{}
	if err := proto.Unmarshal(b, got); err != nil {
		t.Fatal(err)
	}
	want, _ := EncodeObject(o, Full())
	if diff := cmp.Diff(structpb.NewStructValue(want), got, protocmp.Transform()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// decodeViaProto is what DecodeObjectBytes replaces: unmarshal, then
// DecodeObject.
func decodeViaProto(b []byte, opts Options) (resource.Object, error) {
	s := &structpb.Struct{}
	if err := proto.Unmarshal(b, s); err != nil {
		return nil, err
	}
	return DecodeObject(s, opts)
}

// checkDecodeBytes compares DecodeObjectBytes with decodeViaProto on b.
func checkDecodeBytes(t *rapid.T, b []byte, opts Options) {
	want, wantErr := decodeViaProto(b, opts)
	got, gotErr := DecodeObjectBytes(b, opts)
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("errors differ: via proto %v, DecodeObjectBytes %v", wantErr, gotErr)
	}
	if gotErr != nil {
		return
	}
	if want == nil {
		want = resource.Object{}
	}
	if diff := cmp.Diff(canonObject(want), canonObject(got)); diff != "" {
		t.Fatalf("DecodeObjectBytes differs (-via proto +DecodeObjectBytes):\n%s", diff)
	}
}

// TestDecodeObjectBytesMatchesDecodeObject: for what plinth encodes and
// for hand-drawn wire values (special forms, malformed ones), with every
// option, DecodeObjectBytes decodes as unmarshalling then DecodeObject.
func TestDecodeObjectBytesMatchesDecodeObject(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var w *structpb.Struct
		if rapid.Bool().Draw(t, "hand-drawn") {
			w = genWireStruct().Draw(t, "wire")
		} else {
			var err error
			sendOpts := drawOptions(t)
			sendOpts.RejectUnknowns = false
			if w, err = EncodeObject(genObject(true).Draw(t, "object"), sendOpts); err != nil {
				t.Skip("not encodable:", err)
			}
		}
		b, err := proto.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		checkDecodeBytes(t, b, drawOptions(t))
	})
}

// TestDecodeObjectBytesDamaged: bytes protobuf reads differently from a
// plain encoding (merged or repeated fields, fields out of order, unknown
// fields, bad UTF-8, truncations) decode as protobuf reads them, and
// what protobuf rejects fails.
func TestDecodeObjectBytesDamaged(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := genObject(false).Draw(t, "object")
		b, err := AppendObject(nil, o, Full())
		if err != nil {
			t.Skip("not encodable:", err)
		}
		switch rapid.IntRange(0, 3).Draw(t, "damage") {
		case 0: // flip a byte
			if len(b) > 0 {
				i := rapid.IntRange(0, len(b)-1).Draw(t, "at")
				b[i] ^= rapid.ByteRange(1, 255).Draw(t, "xor")
			}
		case 1: // truncate
			b = b[:rapid.IntRange(0, len(b)).Draw(t, "len")]
		case 2: // the object twice: protobuf merges the entries
			b = append(b, b...)
		case 3: // random bytes
			b = rapid.SliceOfN(rapid.Byte(), 0, 40).Draw(t, "bytes")
		}
		checkDecodeBytes(t, b, drawOptions(t))
	})
}

// TestDecodeObjectBytesForms: forms protobuf accepts beyond what
// AppendObject writes.
func TestDecodeObjectBytesForms(t *testing.T) {
	entry := func(fields ...[]byte) []byte {
		var e []byte
		for _, f := range fields {
			e = append(e, f...)
		}
		return protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), e)
	}
	key := func(k string) []byte {
		return protowire.AppendString(protowire.AppendTag(nil, 1, protowire.BytesType), k)
	}
	value := func(v []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, 2, protowire.BytesType), v)
	}
	str := func(s string) []byte {
		return protowire.AppendString(protowire.AppendTag(nil, 3, protowire.BytesType), s)
	}
	num := protowire.AppendFixed64(protowire.AppendTag(nil, 2, protowire.Fixed64Type), 0x4000000000000000)
	tests := map[string][]byte{
		"value before key":         entry(value(str("v")), key("k")),
		"entry without value":      entry(key("k")),
		"entry without key":        entry(value(str("v"))),
		"two kinds in a value":     entry(key("k"), value(append(str("v"), num...))),
		"empty value":              entry(key("k"), value(nil)),
		"duplicate key":            append(entry(key("k"), value(str("a"))), entry(key("k"), value(num))...),
		"unknown field in struct":  append(protowire.AppendVarint(protowire.AppendTag(nil, 9, protowire.VarintType), 1), entry(key("k"), value(str("v")))...),
		"unknown sentinel":         entry(key("k"), value(str(UnknownString))),
		"bad UTF-8 string":         entry(key("k"), value(str("\xff"))),
		"bad UTF-8 key":            entry(key("\xff"), value(str("v"))),
		"secret":                   entry(key("k"), value(protowire.AppendBytes(protowire.AppendTag(nil, 5, protowire.BytesType), append(entry(key(SigKey), value(str(SecretSig))), entry(key("value"), value(num))...)))),
		"struct twice in a value":  entry(key("k"), value(append(protowire.AppendBytes(protowire.AppendTag(nil, 5, protowire.BytesType), entry(key("a"), value(num))), protowire.AppendBytes(protowire.AppendTag(nil, 5, protowire.BytesType), entry(key("b"), value(num)))...))),
		"null with another number": entry(key("k"), value(protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 7))),
	}
	for name, b := range tests {
		t.Run(name, func(t *testing.T) {
			for _, opts := range []Options{Full(), {RejectUnknowns: true}} {
				want, wantErr := decodeViaProto(b, opts)
				got, gotErr := DecodeObjectBytes(b, opts)
				if (gotErr != nil) != (wantErr != nil) {
					t.Fatalf("errors differ: via proto %v, DecodeObjectBytes %v", wantErr, gotErr)
				}
				if wantErr == nil {
					if diff := cmp.Diff(canonObject(want), canonObject(got)); diff != "" {
						t.Errorf("(-via proto +DecodeObjectBytes):\n%s", diff)
					}
				} else if _, ok := wantErr.(*Error); ok && gotErr.Error() != wantErr.Error() {
					t.Errorf("error %q, want %q", gotErr, wantErr)
				}
			}
		})
	}
}
