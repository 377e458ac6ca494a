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
	m, ok := v.(proto.Message)
	if !ok {
		return c.proto.Unmarshal(data, v)
	}
	skip := unread[m.ProtoReflect().Descriptor().FullName()]
	if skip == nil {
		return c.proto.Unmarshal(data, v)
	}
	buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
	defer buf.Free()
	return proto.Unmarshal(withoutFields(buf.ReadOnlyData(), skip), m)
}

// unread holds, by request message, the numbers of the top-level fields
// plinth does not read and the codec leaves undecoded.
var unread = unreadFields(&pulumirpc.RegisterResourceRequest{}, &pulumirpc.ReadResourceRequest{},
	&pulumirpc.ResourceInvokeRequest{}, &pulumirpc.ResourceCallRequest{})

// unreadFields returns the numbers of the fields sourcePosition,
// stackTrace and parentStackTraceHandle of each message, by its name.
func unreadFields(msgs ...proto.Message) map[protoreflect.FullName][]protowire.Number {
	out := map[protoreflect.FullName][]protowire.Number{}
	for _, m := range msgs {
		d := m.ProtoReflect().Descriptor()
		for _, name := range []protoreflect.Name{"sourcePosition", "stackTrace", "parentStackTraceHandle"} {
			if f := d.Fields().ByName(name); f != nil {
				out[d.FullName()] = append(out[d.FullName()], f.Number())
			}
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
