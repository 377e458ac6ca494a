package monitor

import (
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// codec is gRPC's protobuf codec for the monitor's requests, but that it
// does not decode the source position and stack trace the Pulumi SDKs
// attach to every registration, read, invoke and call for Pulumi's
// diagnostics. Plinth reads neither, and a stack trace (a frame message
// and a file URI string for every frame) is most of a registration's bytes
// and of the cost of decoding it: pulumi-language-yaml sends about 1.4 KB
// a pet, 1 KB of it the trace. Responses are encoded as gRPC's own codec
// encodes them.
type codec struct{ proto encoding.CodecV2 }

var _ encoding.CodecV2 = codec{}

func newCodec() codec { return codec{proto: encoding.GetCodecV2("proto")} }

// Name is the default codec's: the wire format is protobuf's.
func (c codec) Name() string { return c.proto.Name() }

// Marshal implements encoding.CodecV2.
func (c codec) Marshal(v any) (mem.BufferSlice, error) { return c.proto.Marshal(v) }

// Unmarshal implements encoding.CodecV2.
func (c codec) Unmarshal(data mem.BufferSlice, v any) error {
	skip := unread(v)
	if skip == nil {
		return c.proto.Unmarshal(data, v)
	}
	buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
	defer buf.Free()
	return proto.Unmarshal(withoutFields(buf.ReadOnlyData(), skip), v.(proto.Message))
}

// unread returns the numbers of the top-level fields of a request that
// plinth does not read and the codec leaves undecoded, nil for a message
// decoded whole.
func unread(v any) []protowire.Number {
	switch v.(type) {
	case *pulumirpc.RegisterResourceRequest:
		return registerUnread
	case *pulumirpc.ReadResourceRequest:
		return readUnread
	case *pulumirpc.ResourceInvokeRequest:
		return invokeUnread
	case *pulumirpc.ResourceCallRequest:
		return callUnread
	}
	return nil
}

// The numbers of the fields sourcePosition, stackTrace and
// parentStackTraceHandle of each request, from its descriptor.
var (
	registerUnread = diagnosticFields(&pulumirpc.RegisterResourceRequest{})
	readUnread     = diagnosticFields(&pulumirpc.ReadResourceRequest{})
	invokeUnread   = diagnosticFields(&pulumirpc.ResourceInvokeRequest{})
	callUnread     = diagnosticFields(&pulumirpc.ResourceCallRequest{})
)

// diagnosticFields returns the numbers of m's fields sourcePosition,
// stackTrace and parentStackTraceHandle.
func diagnosticFields(m proto.Message) []protowire.Number {
	var out []protowire.Number
	fields := m.ProtoReflect().Descriptor().Fields()
	for _, name := range []protoreflect.Name{"sourcePosition", "stackTrace", "parentStackTraceHandle"} {
		if f := fields.ByName(name); f != nil {
			out = append(out, f.Number())
		}
	}
	return out
}

// withoutFields returns the encoded message b without its top-level fields
// numbered in skip: b itself if it has none of them, or if it is malformed
// (decoding it then fails as it would have).
func withoutFields(b []byte, skip []protowire.Number) []byte {
	var out []byte // nil until a field is dropped
	for rest := b; len(rest) > 0; {
		num, typ, n := protowire.ConsumeTag(rest)
		if n < 0 {
			return b
		}
		m := protowire.ConsumeFieldValue(num, typ, rest[n:])
		if m < 0 {
			return b
		}
		field := rest[:n+m]
		start := len(b) - len(rest)
		rest = rest[n+m:]
		switch {
		case !skipped(num, skip) && out != nil:
			out = append(out, field...)
		case skipped(num, skip) && out == nil:
			out = append(make([]byte, 0, len(b)), b[:start]...)
		}
	}
	if out == nil {
		return b
	}
	return out
}

func skipped(num protowire.Number, skip []protowire.Number) bool {
	for _, s := range skip {
		if num == s {
			return true
		}
	}
	return false
}
