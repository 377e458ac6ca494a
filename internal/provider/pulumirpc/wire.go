package pulumirpc

import (
	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// A response's objects are left as bytes by the codec leaveStructs and
// decoded from them (pulumiwire.Codec, pulumiwire.DecodeObjectBytes)
// rather than parsed into Structs and decoded from those.
//
// A request's objects (inputs, state) are written straight to the wire by
// pulumiwire.AppendObject and set as the request's unknown fields, under
// the numbers of its google.protobuf.Struct fields, rather than built as
// Structs for protobuf to measure and marshal by reflection: that was
// most of the client's work per call. Protobuf writes unknown fields as
// they are, and the plugin reads them as the fields they number
// (pulumiwire.Fields).

// leaveStructs is the call option of the calls whose responses carry
// objects: it leaves their Structs as bytes.
var leaveStructs = grpc.ForceCodecV2(pulumiwire.NewCodec(
	&pb.CheckResponse{}, &pb.CreateResponse{}, &pb.ReadResponse{}, &pb.UpdateResponse{}, &pb.InvokeResponse{}))

// structs is a request's Struct fields, encoded, to set as its unknown
// fields. A nil object is sent as an empty one, as peers expect of olds.
type structs []byte

// add appends field num holding o.
func (s structs) add(num protowire.Number, o resource.Object, opts pulumiwire.Options) (structs, error) {
	if s == nil {
		s = make(structs, 0, 256)
	}
	return pulumiwire.AppendObjectField(s, num, o, opts)
}

// set sets them as m's unknown fields; m's own Struct fields must be nil.
func (s structs) set(m proto.Message) { m.ProtoReflect().SetUnknown(protoreflect.RawFields(s)) }
