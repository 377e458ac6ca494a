package pulumiwire

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"
	"pgregory.net/rapid"

	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := genObject(true).Draw(t, "object")
		wire, err := EncodeObject(o, Full())
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		got, err := DecodeObject(wire, Full())
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if diff := cmp.Diff(canonObject(o), canonObject(got)); diff != "" {
			t.Fatalf("round trip changed the object (-sent +received):\n%s", diff)
		}
	})
}

// TestRoundTripWithOutputs: output values carry the same meaning back.
func TestRoundTripWithOutputs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := genObject(false).Draw(t, "object")
		opts := Full()
		opts.Outputs = true
		wire, err := EncodeObject(o, opts)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		got, err := DecodeObject(wire, opts)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if diff := cmp.Diff(canonObject(o), canonObject(got)); diff != "" {
			t.Fatalf("round trip changed the object (-sent +received):\n%s", diff)
		}
	})
}

func str(s string) *structpb.Value { return structpb.NewStringValue(s) }

func obj(fields map[string]*structpb.Value) *structpb.Value {
	return structpb.NewStructValue(&structpb.Struct{Fields: fields})
}

func TestEncodeForms(t *testing.T) {
	id := resource.NewString("i-1")
	unknownID := resource.Unknown()
	urn := resource.URN("urn:pulumi:dev::p::aws:s3:Bucket::b")
	ref := resource.NewReference(resource.Reference{URN: urn, ID: &id, PackageVersion: "6.0.0"})
	component := resource.NewReference(resource.Reference{URN: urn})
	pending := resource.NewReference(resource.Reference{URN: urn, ID: &unknownID})
	secret := resource.MakeSecret(resource.NewString("pw"))
	tests := map[string]struct {
		v    resource.Value
		opts Options
		want *structpb.Value
	}{
		"unknown": {resource.Unknown(), Full(), str(UnknownString)},
		"unknown as output": {resource.Unknown(), Options{Outputs: true},
			obj(map[string]*structpb.Value{SigKey: str(OutputSig)})},
		"secret kept": {secret, Full(),
			obj(map[string]*structpb.Value{SigKey: str(SecretSig), "value": str("pw")})},
		"secret downgraded": {secret, Options{}, str("pw")},
		"secret as output": {secret, Options{Secrets: true, Outputs: true},
			obj(map[string]*structpb.Value{SigKey: str(OutputSig), "secret": structpb.NewBoolValue(true), "value": str("pw")})},
		"reference kept": {ref, Full(), obj(map[string]*structpb.Value{
			SigKey: str(ReferenceSig), "urn": str(string(urn)), "id": str("i-1"), "packageVersion": str("6.0.0")})},
		"reference with unknown ID": {pending, Full(), obj(map[string]*structpb.Value{
			SigKey: str(ReferenceSig), "urn": str(string(urn)), "id": str("")})},
		"reference downgraded to ID":    {ref, Options{}, str("i-1")},
		"component downgraded to URN":   {component, Options{}, str(string(urn))},
		"unknown ID downgraded":         {pending, Options{}, str(UnknownString)},
		"byte string":                   {resource.NewString("\xff\x00"), Full(), obj(map[string]*structpb.Value{SigKey: str(ByteStringSig), "value": str("/wA=")})},
		"text asset":                    {resource.NewAsset(resource.NewTextAsset("hi")), Full(), obj(map[string]*structpb.Value{SigKey: str(AssetSig), "text": str("hi"), "hash": str(resource.NewTextAsset("hi").Hash)})},
		"null stays null in an object":  {resource.NewObject(resource.Object{"a": resource.Null()}), Full(), obj(map[string]*structpb.Value{"a": structpb.NewNullValue()})},
		"secret inside array downgrade": {resource.NewArray(secret), Options{}, structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{str("pw")}})},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := EncodeValue(tc.v, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, protocmp.Transform()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestEncodeErrors(t *testing.T) {
	badID := resource.NewNumber(3)
	tests := map[string]struct {
		o       resource.Object
		opts    Options
		wantErr string
	}{
		"byte string refused": {resource.Object{"data": resource.NewArray(resource.NewString("\xff"))}, Options{},
			"property data[0]: the string is not valid UTF-8"},
		"unknown refused": {resource.Object{"args": resource.NewObject(resource.Object{"x.y": resource.Unknown()})}, Options{RejectUnknowns: true},
			`property args["x.y"]: the value is unknown`},
		"bad reference ID": {resource.Object{"r": resource.NewReference(resource.Reference{URN: "urn:pulumi:a::b::c:d:E::f", ID: &badID})}, Full(),
			"property r: a resource reference's ID must be a string or unknown"},
		"archive member not an asset": {resource.Object{"a": resource.NewArchive(&resource.Archive{Assets: map[string]resource.Value{"m": resource.NewString("x")}})}, Full(),
			"property a.m: an archive member must be an asset or an archive"},
		"after a deeper sibling": {resource.Object{"l": resource.NewArray(deep(10, resource.NewString("ok")), resource.NewObject(resource.Object{"z": resource.Unknown()}))},
			Options{RejectUnknowns: true}, "property l[1].z: the value is unknown"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := EncodeObject(tc.o, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestDecodeForms(t *testing.T) {
	urn := "urn:pulumi:dev::p::aws:s3:Bucket::b"
	unknown := resource.Unknown()
	tests := map[string]struct {
		w    *structpb.Value
		opts Options
		want resource.Value
	}{
		"typed sentinel":     {str(UnknownArchive), Full(), resource.Unknown()},
		"sentinel in a list": {structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{str(UnknownNumber)}}), Full(), resource.NewArray(resource.Unknown())},
		"empty ID is unknown": {obj(map[string]*structpb.Value{SigKey: str(ReferenceSig), "urn": str(urn), "id": str("")}), Full(),
			resource.NewReference(resource.Reference{URN: resource.URN(urn), ID: &unknown})},
		"reference without resources gives the ID": {obj(map[string]*structpb.Value{SigKey: str(ReferenceSig), "urn": str(urn), "id": str("i-7")}), Options{}, resource.NewString("i-7")},
		"unknown output": {obj(map[string]*structpb.Value{SigKey: str(OutputSig), "dependencies": structpb.NewListValue(&structpb.ListValue{})}), Full(), resource.Unknown()},
		"secret output": {obj(map[string]*structpb.Value{SigKey: str(OutputSig), "secret": structpb.NewBoolValue(true), "value": str("v")}), Full(),
			resource.MakeSecret(resource.NewString("v"))},
		"secret unwrapped": {obj(map[string]*structpb.Value{SigKey: str(SecretSig), "value": str("v")}), Options{}, resource.NewString("v")},
		"empty archive":    {obj(map[string]*structpb.Value{SigKey: str(ArchiveSig)}), Full(), resource.NewArchive(&resource.Archive{Assets: map[string]resource.Value{}})},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := DecodeValue(tc.w, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(canon(tc.want), canon(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeMalformed(t *testing.T) {
	tests := map[string]struct {
		w       *structpb.Value
		wantErr string
	}{
		"secret without value":  {obj(map[string]*structpb.Value{SigKey: str(SecretSig)}), "property x: malformed secret: it has no value"},
		"unknown signature":     {obj(map[string]*structpb.Value{SigKey: str("abc")}), `property x: unrecognized signature "abc"`},
		"signature not string":  {obj(map[string]*structpb.Value{SigKey: structpb.NewBoolValue(true)}), "its signature is not a string"},
		"reference without urn": {obj(map[string]*structpb.Value{SigKey: str(ReferenceSig)}), "malformed resource reference: it has no urn"},
		"bad dependencies": {obj(map[string]*structpb.Value{SigKey: str(OutputSig), "dependencies": str("u")}),
			`malformed output value: "dependencies" is not an array`},
		"bad byte string":    {obj(map[string]*structpb.Value{SigKey: str(ByteStringSig), "value": str("!!")}), "malformed byte string"},
		"value with no kind": {&structpb.Value{}, "property x: the value is empty"},
		"archive member":     {obj(map[string]*structpb.Value{SigKey: str(ArchiveSig), "assets": obj(map[string]*structpb.Value{"m": str("x")})}), "property x.m: malformed archive"},
		"asset field type":   {obj(map[string]*structpb.Value{SigKey: str(AssetSig), "path": structpb.NewNumberValue(1)}), `"path" is not a string`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeObject(&structpb.Struct{Fields: map[string]*structpb.Value{"x": tc.w}}, Full())
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

// deep nests v in n objects, each under the key "k".
func deep(n int, v resource.Value) resource.Value {
	for range n {
		v = resource.NewObject(resource.Object{"k": v})
	}
	return v
}

// TestErrorPathAfterSiblings: the path of a value in error is its own,
// whatever its siblings before it held (the codec reuses one buffer for
// the paths of siblings).
func TestErrorPathAfterSiblings(t *testing.T) {
	first, err := EncodeValue(deep(10, resource.NewString("ok")), Full())
	if err != nil {
		t.Fatal(err)
	}
	list := structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{first, obj(map[string]*structpb.Value{"z": {}})}})
	_, err = DecodeObject(&structpb.Struct{Fields: map[string]*structpb.Value{"l": list}}, Full())
	const want = "property l[1].z: the value is empty"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got error %v, want one containing %q", err, want)
	}
	var we *Error
	if !errors.As(err, &we) {
		t.Fatalf("error %T is not an *Error", err)
	}
	if diff := cmp.Diff(resource.PropertyPath{"l", 1, "z"}, we.Path); diff != "" {
		t.Errorf("path (-want +got):\n%s", diff)
	}
}

func TestRejectUnknownsOnDecode(t *testing.T) {
	_, err := DecodeObject(&structpb.Struct{Fields: map[string]*structpb.Value{"a": str(UnknownObject)}}, Options{RejectUnknowns: true})
	if err == nil || !strings.Contains(err.Error(), "property a: the value is unknown") {
		t.Fatalf("got %v", err)
	}
}

func TestNilObjects(t *testing.T) {
	s, err := EncodeObject(nil, Full())
	if s != nil || err != nil {
		t.Errorf("EncodeObject(nil) = %v, %v; want nil, nil", s, err)
	}
	o, err := DecodeObject(nil, Full())
	if o != nil || err != nil {
		t.Errorf("DecodeObject(nil) = %v, %v; want nil, nil", o, err)
	}
}

func TestOutputDependencies(t *testing.T) {
	dep := func(urns ...string) *structpb.Value {
		var vs []*structpb.Value
		for _, u := range urns {
			vs = append(vs, str(u))
		}
		return obj(map[string]*structpb.Value{SigKey: str(OutputSig), "dependencies": structpb.NewListValue(&structpb.ListValue{Values: vs})})
	}
	s := &structpb.Struct{Fields: map[string]*structpb.Value{
		"a": dep("urn:b", "urn:a"),
		"b": structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{dep("urn:c", "urn:a")}}),
		"c": str("plain"),
	}}
	got, err := OutputDependencies(s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]resource.URN{"urn:a", "urn:b", "urn:c"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// FuzzDecode: no wire value, however malformed, makes decoding panic, and
// whatever decodes encodes again.
func FuzzDecode(f *testing.F) {
	seed, _ := EncodeObject(resource.Object{
		"s": resource.MakeSecret(resource.NewString("x")),
		"r": resource.NewReference(resource.Reference{URN: "urn:pulumi:a::b::c:d:E::f"}),
		"u": resource.Unknown(),
	}, Full())
	b, _ := seed.MarshalJSON()
	f.Add(b)
	f.Add([]byte(`{"a":{"4dabf18193072939515e22adb298388d":"0def7320c3a5731c473e5ecbe6d01bc7","assets":{"m":1}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s structpb.Struct
		if err := s.UnmarshalJSON(data); err != nil {
			return
		}
		o, err := DecodeObject(&s, Full())
		if err != nil {
			return
		}
		if _, err := EncodeObject(o, Full()); err != nil {
			t.Fatalf("decoded %v but could not encode it again: %v", o, err)
		}
	})
}
