package pulumirpc

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// wireClient is a fake plugin that keeps each request as the plugin reads
// it: marshalled, then unmarshalled into a fresh message.
type wireClient struct {
	pb.ResourceProviderClient
	mu   sync.Mutex
	sent []proto.Message
}

func (c *wireClient) keep(req proto.Message) error {
	b, err := proto.Marshal(req)
	if err != nil {
		return err
	}
	got := req.ProtoReflect().Type().New().Interface()
	if err := proto.Unmarshal(b, got); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, got)
	return nil
}

func (c *wireClient) Check(_ context.Context, r *pb.CheckRequest, _ ...grpc.CallOption) (*pb.CheckResponse, error) {
	return &pb.CheckResponse{}, c.keep(r)
}

func (c *wireClient) Diff(_ context.Context, r *pb.DiffRequest, _ ...grpc.CallOption) (*pb.DiffResponse, error) {
	return &pb.DiffResponse{}, c.keep(r)
}

func (c *wireClient) Create(_ context.Context, r *pb.CreateRequest, _ ...grpc.CallOption) (*pb.CreateResponse, error) {
	return &pb.CreateResponse{Id: "id"}, c.keep(r)
}

func (c *wireClient) Read(_ context.Context, r *pb.ReadRequest, _ ...grpc.CallOption) (*pb.ReadResponse, error) {
	return &pb.ReadResponse{}, c.keep(r)
}

func (c *wireClient) Update(_ context.Context, r *pb.UpdateRequest, _ ...grpc.CallOption) (*pb.UpdateResponse, error) {
	return &pb.UpdateResponse{}, c.keep(r)
}

func (c *wireClient) Delete(_ context.Context, r *pb.DeleteRequest, _ ...grpc.CallOption) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, c.keep(r)
}

func (c *wireClient) Invoke(_ context.Context, r *pb.InvokeRequest, _ ...grpc.CallOption) (*pb.InvokeResponse, error) {
	return &pb.InvokeResponse{}, c.keep(r)
}

// TestRequestsOnTheWire: what each resource call sends is what the
// Structs pulumiwire.EncodeObject builds would send: objects under their
// fields, nil olds as empty objects, a Read's nil inputs as none,
// secrets as secrets or plain as the plugin accepts them.
func TestRequestsOnTheWire(t *testing.T) {
	const u = resource.URN("urn:pulumi:dev::proj::fault:index:Thing::t")
	ins := resource.Object{"a": resource.NewString("x"), "s": resource.MakeSecret(resource.NewArray(resource.NewNumber(1), resource.Null())),
		"o": resource.NewObject(resource.Object{"b": resource.NewBool(true), "u": resource.Unknown()})}
	outs := resource.Object{"a": resource.NewString("x"), "id": resource.NewString("i-1")}
	ctx := context.Background()
	for _, secrets := range []bool{true, false} {
		c := &wireClient{}
		p := &Provider{name: "fault", client: c, feat: features{handshook: true, secrets: secrets, resources: true, preview: true, configured: true}}
		opts := pulumiwire.Options{Secrets: secrets, Resources: true}
		enc := func(o resource.Object) *structpb.Struct {
			t.Helper()
			s, err := pulumiwire.EncodeObject(o, opts)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		empty := &structpb.Struct{}
		known := resource.Object{"a": resource.NewString("y")}
		calls := []func() error{
			func() error {
				_, err := p.Check(ctx, provider.CheckRequest{URN: u, News: ins, RandomSeed: []byte("r")})
				return err
			},
			func() error {
				_, err := p.Diff(ctx, provider.DiffRequest{URN: u, ID: "i-1", OldOutputs: outs, News: ins, IgnoreChanges: []resource.PropertyPath{{"a"}}})
				return err
			},
			func() error {
				_, err := p.Create(ctx, provider.CreateRequest{URN: u, Inputs: ins, Preview: true})
				return err
			},
			func() error { _, err := p.Read(ctx, provider.ReadRequest{URN: u, ID: "i-1"}); return err },
			func() error {
				_, err := p.Read(ctx, provider.ReadRequest{URN: u, ID: "i-1", State: outs, Inputs: known})
				return err
			},
			func() error {
				_, err := p.Update(ctx, provider.UpdateRequest{URN: u, ID: "i-1", OldInputs: known, OldOutputs: outs, News: known})
				return err
			},
			func() error {
				_, err := p.Delete(ctx, provider.DeleteRequest{URN: u, ID: "i-1", Outputs: outs})
				return err
			},
			func() error {
				_, err := p.Invoke(ctx, provider.InvokeRequest{Token: "f:index:g", Args: known})
				return err
			},
		}
		want := []proto.Message{
			&pb.CheckRequest{Urn: string(u), Name: "t", Type: "fault:index:Thing", Olds: empty, News: enc(ins), RandomSeed: []byte("r")},
			&pb.DiffRequest{Id: "i-1", Urn: string(u), Name: "t", Type: "fault:index:Thing", OldInputs: empty, Olds: enc(outs), News: enc(ins), IgnoreChanges: []string{"a"}},
			&pb.CreateRequest{Urn: string(u), Name: "t", Type: "fault:index:Thing", Properties: enc(ins), Preview: true},
			&pb.ReadRequest{Id: "i-1", Urn: string(u), Name: "t", Type: "fault:index:Thing", Properties: empty},
			&pb.ReadRequest{Id: "i-1", Urn: string(u), Name: "t", Type: "fault:index:Thing", Properties: enc(outs), Inputs: enc(known)},
			&pb.UpdateRequest{Id: "i-1", Urn: string(u), Name: "t", Type: "fault:index:Thing", Olds: enc(outs), OldInputs: enc(known), News: enc(known), IgnoreChanges: []string{}},
			&pb.DeleteRequest{Id: "i-1", Urn: string(u), Name: "t", Type: "fault:index:Thing", Properties: enc(outs), OldInputs: empty},
			&pb.InvokeRequest{Tok: "f:index:g", Args: enc(known)},
		}
		for _, call := range calls {
			if err := call(); err != nil {
				t.Fatal(err)
			}
		}
		if diff := cmp.Diff(want, c.sent, protocmp.Transform()); diff != "" {
			t.Errorf("secrets=%v: requests on the wire (-want +got):\n%s", secrets, diff)
		}
	}
}

// TestRequestEncodingErrors: a value a call cannot send is reported with
// the call, the resource and the property, and nothing is sent.
func TestRequestEncodingErrors(t *testing.T) {
	const u = resource.URN("urn:pulumi:dev::proj::fault:index:Thing::t")
	c := &wireClient{}
	p := &Provider{name: "fault", client: c, feat: features{handshook: true, secrets: true, resources: true, preview: true, configured: true}}
	unknown := resource.Object{"l": resource.NewArray(resource.NewString("ok"), resource.Unknown())}
	ctx := context.Background()
	_, err := p.Create(ctx, provider.CreateRequest{URN: u, Inputs: unknown})
	const wantCreate = "provider fault: Create of " + string(u) + ": encoding the inputs: property l[1]: the value is unknown"
	if err == nil || !strings.Contains(err.Error(), wantCreate) {
		t.Errorf("Create: %v, want an error containing %q", err, wantCreate)
	}
	_, err = p.Update(ctx, provider.UpdateRequest{URN: u, ID: "i-1", News: unknown})
	const wantUpdate = "provider fault: Update of " + string(u) + ": encoding the inputs and state: property l[1]: the value is unknown"
	if err == nil || !strings.Contains(err.Error(), wantUpdate) {
		t.Errorf("Update: %v, want an error containing %q", err, wantUpdate)
	}
	if len(c.sent) != 0 {
		t.Errorf("sent %d requests, want none", len(c.sent))
	}
}
