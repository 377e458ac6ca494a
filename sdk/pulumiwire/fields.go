package pulumiwire

import (
	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/encoding/protowire"
)

// Fields are the numbers of the google.protobuf.Struct fields of the
// resource provider's requests and responses, looked up by name in the
// generated descriptors: a client writes the requests' objects straight
// to the wire (AppendObjectField) and reads the responses' straight from
// it (Codec), and a server the other way round.
var Fields = struct {
	CheckOlds        protowire.Number
	CheckNews        protowire.Number
	DiffOlds         protowire.Number
	DiffNews         protowire.Number
	DiffOldInputs    protowire.Number
	CreateProps      protowire.Number
	ReadProps        protowire.Number
	ReadInputs       protowire.Number
	UpdateOlds       protowire.Number
	UpdateNews       protowire.Number
	UpdateOldInputs  protowire.Number
	DeleteProps      protowire.Number
	DeleteOldInputs  protowire.Number
	InvokeArgs       protowire.Number
	CheckInputs      protowire.Number
	CreateOutputs    protowire.Number
	ReadOutputs      protowire.Number
	ReadOutputInputs protowire.Number
	UpdateOutputs    protowire.Number
	InvokeReturn     protowire.Number
}{
	CheckOlds:        StructFieldNumber(&pb.CheckRequest{}, "olds"),
	CheckNews:        StructFieldNumber(&pb.CheckRequest{}, "news"),
	DiffOlds:         StructFieldNumber(&pb.DiffRequest{}, "olds"),
	DiffNews:         StructFieldNumber(&pb.DiffRequest{}, "news"),
	DiffOldInputs:    StructFieldNumber(&pb.DiffRequest{}, "old_inputs"),
	CreateProps:      StructFieldNumber(&pb.CreateRequest{}, "properties"),
	ReadProps:        StructFieldNumber(&pb.ReadRequest{}, "properties"),
	ReadInputs:       StructFieldNumber(&pb.ReadRequest{}, "inputs"),
	UpdateOlds:       StructFieldNumber(&pb.UpdateRequest{}, "olds"),
	UpdateNews:       StructFieldNumber(&pb.UpdateRequest{}, "news"),
	UpdateOldInputs:  StructFieldNumber(&pb.UpdateRequest{}, "old_inputs"),
	DeleteProps:      StructFieldNumber(&pb.DeleteRequest{}, "properties"),
	DeleteOldInputs:  StructFieldNumber(&pb.DeleteRequest{}, "old_inputs"),
	InvokeArgs:       StructFieldNumber(&pb.InvokeRequest{}, "args"),
	CheckInputs:      StructFieldNumber(&pb.CheckResponse{}, "inputs"),
	CreateOutputs:    StructFieldNumber(&pb.CreateResponse{}, "properties"),
	ReadOutputs:      StructFieldNumber(&pb.ReadResponse{}, "properties"),
	ReadOutputInputs: StructFieldNumber(&pb.ReadResponse{}, "inputs"),
	UpdateOutputs:    StructFieldNumber(&pb.UpdateResponse{}, "properties"),
	InvokeReturn:     StructFieldNumber(&pb.InvokeResponse{}, "return"),
}
