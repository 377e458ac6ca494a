package monitor

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"
)

// trace is a stack trace as a Pulumi SDK attaches it, n frames deep.
func trace(n int) *pulumirpc.StackTrace {
	t := &pulumirpc.StackTrace{}
	for i := range n {
		t.Frames = append(t.Frames, &pulumirpc.StackFrame{Pc: &pulumirpc.SourcePosition{Uri: "file:///src/index.ts", Line: int32(10 + i)}})
	}
	return t
}

// withoutDiagnostics is m with its source position, stack trace and
// parent stack trace handle cleared: what the codec must decode.
func withoutDiagnostics(m proto.Message) proto.Message {
	m = proto.Clone(m)
	r := m.ProtoReflect()
	for _, name := range []string{"sourcePosition", "stackTrace", "parentStackTraceHandle"} {
		if f := r.Descriptor().Fields().ByName(protoreflect.Name(name)); f != nil {
			r.Clear(f)
		}
	}
	return m
}

// TestCodecSkipsOnlyDiagnostics checks that the monitor's codec decodes a
// request as gRPC's does, but for the source position and stack trace:
// every other field, unknown fields included, comes through whole.
func TestCodecSkipsOnlyDiagnostics(t *testing.T) {
	obj, err := structpb.NewStruct(map[string]any{"length": 2, "nested": map[string]any{"list": []any{"a", 1.5, true, nil}}})
	if err != nil {
		t.Fatal(err)
	}
	pos := &pulumirpc.SourcePosition{Uri: "file:///src/index.ts", Line: 7}
	tests := map[string]proto.Message{
		"register with diagnostics": &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: "p", Parent: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev",
			Custom: true, Object: obj, Dependencies: []string{"urn:a", "urn:b"}, AcceptSecrets: true,
			PropertyDependencies: map[string]*pulumirpc.RegisterResourceRequest_PropertyDependencies{"length": {Urns: []string{"urn:a"}}},
			Transforms:           []*pulumirpc.Callback{{Target: "127.0.0.1:1", Token: "t"}},
			SourcePosition:       pos, StackTrace: trace(12), ParentStackTraceHandle: "h", Version: "1.2.3"},
		"register without diagnostics": &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: "p", Object: obj},
		"register with only a trace":   &pulumirpc.RegisterResourceRequest{StackTrace: trace(3)},
		"empty register":               &pulumirpc.RegisterResourceRequest{},
		"read": &pulumirpc.ReadResourceRequest{Id: "i", Type: "t:m:R", Name: "r", Properties: obj,
			SourcePosition: pos, StackTrace: trace(2), ParentStackTraceHandle: "h"},
		"invoke": &pulumirpc.ResourceInvokeRequest{Tok: "t:m:f", Args: obj, Provider: "urn::id",
			SourcePosition: pos, StackTrace: trace(4), ParentStackTraceHandle: "h"},
		"call": &pulumirpc.ResourceCallRequest{Tok: "t:m:R/m", Args: obj, SourcePosition: pos, StackTrace: trace(1)},
		"log":  &pulumirpc.LogRequest{Severity: pulumirpc.LogSeverity_DEBUG, Message: "Registering resource p"},
	}
	for name, req := range tests {
		t.Run(name, func(t *testing.T) {
			b, err := proto.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			got := req.ProtoReflect().New().Interface()
			if err := newCodec().Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(withoutDiagnostics(req), got, protocmp.Transform()); diff != "" {
				t.Errorf("decoded request (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWithoutFields checks the dropping of top-level fields on encodings
// proto.Marshal does not produce: a dropped field repeated, first, last,
// beside unknown fields, and malformed input, which is returned as it is
// so that decoding fails as it would have.
func TestWithoutFields(t *testing.T) {
	field := func(num protowire.Number, s string) []byte {
		return protowire.AppendString(protowire.AppendTag(nil, num, protowire.BytesType), s)
	}
	varint := protowire.AppendVarint(protowire.AppendTag(nil, 99, protowire.VarintType), 5)
	cat := func(parts ...[]byte) []byte {
		var out []byte
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	skip := []protowire.Number{35, 29}
	tests := map[string]struct{ in, want []byte }{
		"none dropped":  {cat(field(1, "a"), varint), cat(field(1, "a"), varint)},
		"first":         {cat(field(35, "trace"), field(1, "a")), field(1, "a")},
		"last":          {cat(field(1, "a"), field(29, "pos")), field(1, "a")},
		"repeated":      {cat(field(35, "x"), field(1, "a"), field(35, "y"), varint, field(29, "p")), cat(field(1, "a"), varint)},
		"only dropped":  {cat(field(35, "x"), field(29, "y")), []byte{}},
		"empty":         {[]byte{}, []byte{}},
		"truncated":     {cat(field(35, "trace"), field(1, "abc")[:3]), cat(field(35, "trace"), field(1, "abc")[:3])},
		"malformed tag": {[]byte{0x80}, []byte{0x80}},
		"group":         {cat(protowire.AppendTag(nil, 35, protowire.StartGroupType), protowire.AppendTag(nil, 35, protowire.EndGroupType), field(1, "a")), field(1, "a")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, withoutFields(tc.in, skip)); diff != "" {
				t.Errorf("withoutFields (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCodecMalformedRequest checks that a malformed request fails to
// decode through the codec as it does through gRPC's.
func TestCodecMalformedRequest(t *testing.T) {
	b, err := proto.Marshal(&pulumirpc.RegisterResourceRequest{Name: "p", StackTrace: trace(2)})
	if err != nil {
		t.Fatal(err)
	}
	b = b[:len(b)-3]
	var want, got pulumirpc.RegisterResourceRequest
	wantErr := proto.Unmarshal(b, &want)
	gotErr := newCodec().Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, &got)
	if wantErr == nil || gotErr == nil || gotErr.Error() != wantErr.Error() {
		t.Errorf("decoding a truncated request: got error %v, want %v", gotErr, wantErr)
	}
}

// BenchmarkDecodeRegistration decodes a registration as
// pulumi-language-yaml sends it, through gRPC's codec and the monitor's.
func BenchmarkDecodeRegistration(b *testing.B) {
	obj, _ := structpb.NewStruct(map[string]any{"length": 2, "prefix": "p7"})
	req := &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: "pet7", Parent: "urn:pulumi:dev::pulumibench::pulumi:pulumi:Stack::pulumibench-dev",
		Custom: true, Object: obj, AcceptSecrets: true, AcceptResources: true,
		PropertyDependencies: map[string]*pulumirpc.RegisterResourceRequest_PropertyDependencies{"length": {}, "prefix": {}},
		CustomTimeouts:       &pulumirpc.RegisterResourceRequest_CustomTimeouts{},
		SourcePosition:       &pulumirpc.SourcePosition{Uri: "file:///root/go/pkg/mod/github.com/pulumi/pulumi-yaml@v1.25.0/pkg/pulumiyaml/run.go", Line: 1391},
		StackTrace:           trace(10)}
	data, err := proto.Marshal(req)
	if err != nil {
		b.Fatal(err)
	}
	for name, c := range map[string]interface {
		Unmarshal(mem.BufferSlice, any) error
	}{"grpc": newCodec().proto, "monitor": newCodec()} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var got pulumirpc.RegisterResourceRequest
				if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(data)}, &got); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
