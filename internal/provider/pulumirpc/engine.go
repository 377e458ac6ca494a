package pulumirpc

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// engine serves the Engine gRPC service a plugin calls back into, on a
// loopback port of its own: messages a provider logs go to the log with
// the provider's name, and the root resource it asks about is remembered.
type engine struct {
	pb.UnimplementedEngineServer

	name   string
	log    func(LogLine)
	addr   string
	server *grpc.Server

	mu   sync.Mutex
	root string
}

func startEngine(name string, log func(LogLine)) (*engine, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("provider %s: listening for the plugin's engine calls: %w", name, err)
	}
	e := &engine{name: name, log: log, addr: lis.Addr().String(), server: grpc.NewServer()}
	pb.RegisterEngineServer(e.server, e)
	go func() { _ = e.server.Serve(lis) }()
	return e, nil
}

func (e *engine) stop() { e.server.Stop() }

// Log forwards a message the provider logged.
func (e *engine) Log(_ context.Context, req *pb.LogRequest) (*emptypb.Empty, error) {
	e.log(LogLine{
		Provider: e.name,
		Stream:   "engine",
		Severity: strings.ToLower(req.GetSeverity().String()),
		URN:      req.GetUrn(),
		Text:     req.GetMessage(),
	})
	return &emptypb.Empty{}, nil
}

// GetRootResource returns the root resource set earlier, if any.
func (e *engine) GetRootResource(context.Context, *pb.GetRootResourceRequest) (*pb.GetRootResourceResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return &pb.GetRootResourceResponse{Urn: e.root}, nil
}

// SetRootResource remembers the root resource.
func (e *engine) SetRootResource(_ context.Context, req *pb.SetRootResourceRequest) (*pb.SetRootResourceResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.root = req.GetUrn()
	return &pb.SetRootResourceResponse{}, nil
}

// RequirePulumiVersion accepts any range: plinth implements the protocol
// rather than a Pulumi version.
func (e *engine) RequirePulumiVersion(context.Context, *pb.RequirePulumiVersionRequest) (*pb.RequirePulumiVersionResponse, error) {
	return &pb.RequirePulumiVersionResponse{}, nil
}

// StartDebugging logs that the plugin waits for a debugger.
func (e *engine) StartDebugging(_ context.Context, req *pb.StartDebuggingRequest) (*emptypb.Empty, error) {
	e.log(LogLine{Provider: e.name, Stream: "engine", Severity: "info", Text: "the plugin is waiting for a debugger: " + req.String()})
	return &emptypb.Empty{}, nil
}
