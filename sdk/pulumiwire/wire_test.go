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
