// Command pulumi-resource-echo is a Pulumi-protocol plugin for the
// secrets scan, made to behave as Pulumi's test provider Echo does: it
// says it accepts secrets, but drops their marks and echoes every input
// back as a plain output, and its IDs are "echo-" and the name input. So
// anything the engine does not seal itself (outputs derived from secret
// inputs, an ID derived from a secret) would reach the state and the
// display in plain text.
package main

import (
	"context"
	"fmt"
	"net"
	"os"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

// The keys Pulumi's wire format marks a secret with.
const (
	sigKey    = "4dabf18193072939515e22adb298388d"
	secretSig = "1b47061264138c4ac30d75fd1eb44270"
)

const schema = `{"name":"echo","version":"1.0.0","resources":{"echo:index:Echo":{
 "inputProperties":{"name":{"type":"string"},"echo":{"type":"string"},"nested":{"type":"object","additionalProperties":{"type":"string"}}},
 "requiredInputs":["name"],
 "properties":{"name":{"type":"string"},"echo":{"type":"string"},"nested":{"type":"object","additionalProperties":{"type":"string"}}}}}}`

type server struct {
	pb.UnimplementedResourceProviderServer
}

func main() {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s := grpc.NewServer()
	pb.RegisterResourceProviderServer(s, &server{})
	fmt.Println(lis.Addr().(*net.TCPAddr).Port)
	_ = s.Serve(lis)
}

func (*server) Handshake(context.Context, *pb.ProviderHandshakeRequest) (*pb.ProviderHandshakeResponse, error) {
	return &pb.ProviderHandshakeResponse{AcceptSecrets: true, AcceptResources: true}, nil
}

func (*server) GetPluginInfo(context.Context, *emptypb.Empty) (*pb.PluginInfo, error) {
	return &pb.PluginInfo{Version: "1.0.0"}, nil
}

func (*server) GetSchema(context.Context, *pb.GetSchemaRequest) (*pb.GetSchemaResponse, error) {
	return &pb.GetSchemaResponse{Schema: schema}, nil
}

func (*server) CheckConfig(_ context.Context, req *pb.CheckRequest) (*pb.CheckResponse, error) {
	return &pb.CheckResponse{Inputs: req.GetNews()}, nil
}

func (*server) DiffConfig(context.Context, *pb.DiffRequest) (*pb.DiffResponse, error) {
	return &pb.DiffResponse{Changes: pb.DiffResponse_DIFF_NONE}, nil
}

func (*server) Configure(context.Context, *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	return &pb.ConfigureResponse{AcceptSecrets: true, AcceptResources: true, SupportsPreview: true}, nil
}

func (*server) Check(_ context.Context, req *pb.CheckRequest) (*pb.CheckResponse, error) {
	return &pb.CheckResponse{Inputs: req.GetNews()}, nil
}

// Diff compares in the clear; a new name is a new echo.
func (*server) Diff(_ context.Context, req *pb.DiffRequest) (*pb.DiffResponse, error) {
	olds, news := plain(req.GetOlds()), plain(req.GetNews())
	var diffs, replaces []string
	for _, k := range []string{"name", "echo", "nested"} {
		if !proto.Equal(olds.GetFields()[k], news.GetFields()[k]) {
			diffs = append(diffs, k)
		}
	}
	if !proto.Equal(olds.GetFields()["name"], news.GetFields()["name"]) {
		replaces = []string{"name"}
	}
	if len(diffs) == 0 {
		return &pb.DiffResponse{Changes: pb.DiffResponse_DIFF_NONE}, nil
	}
	return &pb.DiffResponse{Changes: pb.DiffResponse_DIFF_SOME, Diffs: diffs, Replaces: replaces}, nil
}

func (*server) Create(_ context.Context, req *pb.CreateRequest) (*pb.CreateResponse, error) {
	outs := plain(req.GetProperties())
	id := ""
	if !req.GetPreview() {
		id = "echo-" + outs.GetFields()["name"].GetStringValue()
	}
	return &pb.CreateResponse{Id: id, Properties: outs}, nil
}

func (*server) Read(_ context.Context, req *pb.ReadRequest) (*pb.ReadResponse, error) {
	return &pb.ReadResponse{Id: req.GetId(), Properties: plain(req.GetProperties()), Inputs: plain(req.GetInputs())}, nil
}

func (*server) Update(_ context.Context, req *pb.UpdateRequest) (*pb.UpdateResponse, error) {
	return &pb.UpdateResponse{Properties: plain(req.GetNews())}, nil
}

func (*server) Delete(context.Context, *pb.DeleteRequest) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

// plain returns s with every secret replaced by its value, as a provider
// that unmarshals without keeping secrets sees it.
func plain(s *structpb.Struct) *structpb.Struct {
	out := &structpb.Struct{Fields: map[string]*structpb.Value{}}
	for k, v := range s.GetFields() {
		out.Fields[k] = plainValue(v)
	}
	return out
}

func plainValue(v *structpb.Value) *structpb.Value {
	switch x := v.GetKind().(type) {
	case *structpb.Value_StructValue:
		f := x.StructValue.GetFields()
		if f[sigKey].GetStringValue() == secretSig {
			return plainValue(f["value"])
		}
		return structpb.NewStructValue(plain(x.StructValue))
	case *structpb.Value_ListValue:
		l := &structpb.ListValue{}
		for _, e := range x.ListValue.GetValues() {
			l.Values = append(l.Values, plainValue(e))
		}
		return structpb.NewListValue(l)
	}
	return v
}
