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

// Numbers of the Struct fields, looked up by name in the generated
// descriptors.
var (
	checkOlds       = pulumiwire.StructFieldNumber(&pb.CheckRequest{}, "olds")
	checkNews       = pulumiwire.StructFieldNumber(&pb.CheckRequest{}, "news")
	diffOlds        = pulumiwire.StructFieldNumber(&pb.DiffRequest{}, "olds")
	diffNews        = pulumiwire.StructFieldNumber(&pb.DiffRequest{}, "news")
	diffOldInputs   = pulumiwire.StructFieldNumber(&pb.DiffRequest{}, "old_inputs")
	createProps     = pulumiwire.StructFieldNumber(&pb.CreateRequest{}, "properties")
	readProps       = pulumiwire.StructFieldNumber(&pb.ReadRequest{}, "properties")
	readInputs      = pulumiwire.StructFieldNumber(&pb.ReadRequest{}, "inputs")
	updateOlds      = pulumiwire.StructFieldNumber(&pb.UpdateRequest{}, "olds")
	updateNews      = pulumiwire.StructFieldNumber(&pb.UpdateRequest{}, "news")
	updateOldInputs = pulumiwire.StructFieldNumber(&pb.UpdateRequest{}, "old_inputs")
	deleteProps     = pulumiwire.StructFieldNumber(&pb.DeleteRequest{}, "properties")
	deleteOldInputs = pulumiwire.StructFieldNumber(&pb.DeleteRequest{}, "old_inputs")
	invokeArgs      = pulumiwire.StructFieldNumber(&pb.InvokeRequest{}, "args")

	checkInputs      = pulumiwire.StructFieldNumber(&pb.CheckResponse{}, "inputs")
	createOutputs    = pulumiwire.StructFieldNumber(&pb.CreateResponse{}, "properties")
	readOutputs      = pulumiwire.StructFieldNumber(&pb.ReadResponse{}, "properties")
	readOutputInputs = pulumiwire.StructFieldNumber(&pb.ReadResponse{}, "inputs")
	updateOutputs    = pulumiwire.StructFieldNumber(&pb.UpdateResponse{}, "properties")
	invokeReturn     = pulumiwire.StructFieldNumber(&pb.InvokeResponse{}, "return")
)
