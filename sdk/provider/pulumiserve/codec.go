package pulumiserve

import (
	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/plinth-iac/plinth/sdk/pulumiwire"
)

// Codec is the server's gRPC codec: the protobuf codec, except that the
// objects of resource calls' requests (Check, Diff, Create, Read, Update,
// Delete, Invoke, and CheckConfig and DiffConfig, which share their
// messages) are left as bytes for the handlers to decode straight into
// plinth's values (pulumiwire.Codec). Serve uses it; a server of one's own
// may too, with grpc.ForceServerCodecV2: the handlers read either form.
var Codec = pulumiwire.NewCodec(&pb.CheckRequest{}, &pb.DiffRequest{}, &pb.CreateRequest{},
	&pb.ReadRequest{}, &pb.UpdateRequest{}, &pb.DeleteRequest{}, &pb.InvokeRequest{})
