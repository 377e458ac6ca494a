package pulumiserve

import (
	"context"
	"net"
	"testing"

	"github.com/google/go-cmp/cmp"
	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"
)

// plainServer serves NewServer on a gRPC server of its own, with the
// protobuf codec: the handlers get parsed requests and return Structs.
func plainServer(t *testing.T) *grpc.ClientConn {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	pb.RegisterResourceProviderServer(gs, NewServer(newTestProvider(), ""))
	go func() { _ = gs.Serve(lis) }()
	t.Cleanup(gs.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// TestServeAnswersAsPlainServer: Serve, whose codec leaves the requests'
// objects as bytes and which writes the responses' objects straight to
// the wire, answers every resource call as NewServer on a plain gRPC
// server does, secrets, unknowns and all.
func TestServeAnswersAsPlainServer(t *testing.T) {
	obj := func(m map[string]any) *structpb.Struct {
		s, err := structpb.NewStruct(m)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	secret := map[string]any{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "value": "hunter2"}
	ins := obj(map[string]any{"name": "b", "password": secret, "tags": map[string]any{"k": "v"}})
	withUnknown := obj(map[string]any{"name": "b", "tags": "04da6b54-80e4-46f7-96ec-b56ff0331ba9"})
	state := obj(map[string]any{"name": "b", "password": secret, "size": 1, "arn": "arn:north:b", "tags": map[string]any{}})
	const urn = "urn:pulumi:dev::proj::test:index:Box::b"
	calls := []struct {
		name string
		call func(pb.ResourceProviderClient) (proto.Message, error)
	}{
		{"Check", func(c pb.ResourceProviderClient) (proto.Message, error) {
			return c.Check(context.Background(), &pb.CheckRequest{Urn: urn, Olds: &structpb.Struct{}, News: ins})
		}},
		{"Check with an unknown", func(c pb.ResourceProviderClient) (proto.Message, error) {
			return c.Check(context.Background(), &pb.CheckRequest{Urn: urn, News: withUnknown})
		}},
		{"Diff", func(c pb.ResourceProviderClient) (proto.Message, error) {
			return c.Diff(context.Background(), &pb.DiffRequest{Urn: urn, Id: "box-b", OldInputs: ins, Olds: state, News: obj(map[string]any{"name": "b", "size": 2})})
		}},
		{"Create preview", func(c pb.ResourceProviderClient) (proto.Message, error) {
			return c.Create(context.Background(), &pb.CreateRequest{Urn: urn, Properties: withUnknown, Preview: true})
		}},
		{"Create", func(c pb.ResourceProviderClient) (proto.Message, error) {
			return c.Create(context.Background(), &pb.CreateRequest{Urn: urn, Properties: ins})
		}},
		{"Read", func(c pb.ResourceProviderClient) (proto.Message, error) {
			return c.Read(context.Background(), &pb.ReadRequest{Urn: urn, Id: "box-b", Properties: state, Inputs: ins})
		}},
		{"Read gone", func(c pb.ResourceProviderClient) (proto.Message, error) {
			return c.Read(context.Background(), &pb.ReadRequest{Urn: urn, Id: "box-gone", Properties: state})
		}},
		{"Update", func(c pb.ResourceProviderClient) (proto.Message, error) {
			return c.Update(context.Background(), &pb.UpdateRequest{Urn: urn, Id: "box-b", Olds: state, OldInputs: ins, News: ins})
		}},
		{"Delete", func(c pb.ResourceProviderClient) (proto.Message, error) {
			return c.Delete(context.Background(), &pb.DeleteRequest{Urn: urn, Id: "box-b", Properties: state, OldInputs: ins})
		}},
		{"Invoke", func(c pb.ResourceProviderClient) (proto.Message, error) {
			return c.Invoke(context.Background(), &pb.InvokeRequest{Tok: "test:index:upper", Args: obj(map[string]any{"text": "hi"})})
		}},
	}
	served, plain := pb.NewResourceProviderClient(serve(t)), pb.NewResourceProviderClient(plainServer(t))
	for _, c := range []pb.ResourceProviderClient{served, plain} {
		if _, err := c.Configure(context.Background(), &pb.ConfigureRequest{Args: obj(map[string]any{"region": "north"}), AcceptSecrets: true, AcceptResources: true}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range calls {
		t.Run(tc.name, func(t *testing.T) {
			want, wantErr := tc.call(plain)
			got, gotErr := tc.call(served)
			if (gotErr != nil) != (wantErr != nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
				t.Fatalf("errors differ: plain %v, Serve %v", wantErr, gotErr)
			}
			if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
				t.Errorf("(-plain +Serve):\n%s", diff)
			}
		})
	}
}
