// Command faultplugin is a tiny Pulumi-protocol plugin for the adapter's
// tests. PLINTH_FAULT picks a misbehaviour: exit, garbage, silent (at
// start); crash, hang, malformed, initfail, noid (success without an ID),
// refuse (a deliberate error), huge (a 17 MiB state) (in Create); missingconfig (in
// Configure); legacy (no Handshake, no secrets); stubborn (ignores
// SIGTERM); forker (starts a child that keeps its output open, and logs
// "child <pid>" on stderr); spam (writes 8 MiB to stderr, much of it in one
// line, before its port). Without it the plugin behaves.
// PLINTH_FAULT_SCHEMA_LOG names a file it appends a line to on each
// GetSchema; PLINTH_FAULT_ENV_LOG one it writes its collector settings to
// when it starts.
package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

const sigKey = "4dabf18193072939515e22adb298388d"

type server struct {
	pb.UnimplementedResourceProviderServer
	fault   string
	engine  pb.EngineClient
	ids     atomic.Int64
	cancels atomic.Int64
}

func main() {
	logEnv()
	fault := os.Getenv("PLINTH_FAULT")
	switch fault {
	case "exit":
		fmt.Fprintln(os.Stderr, "fatal: no credentials found")
		os.Exit(3)
	case "garbage":
		fmt.Println("Welcome to the plugin!")
		time.Sleep(time.Hour)
	case "silent":
		time.Sleep(time.Hour)
	case "stubborn":
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
	case "forker":
		child := exec.Command("sleep", "3600")
		child.Stdout, child.Stderr = os.Stdout, os.Stderr
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "child", child.Process.Pid)
	case "spam":
		line := strings.Repeat("x", 1<<20)
		for i := 0; i < 4; i++ {
			fmt.Fprint(os.Stderr, line) // one 4 MiB line
		}
		fmt.Fprintln(os.Stderr)
		for i := 0; i < 40000; i++ {
			fmt.Fprintln(os.Stderr, "noise", i, strings.Repeat("y", 100))
		}
	}
	conn, err := grpc.NewClient(os.Args[len(os.Args)-1], grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s := grpc.NewServer()
	pb.RegisterResourceProviderServer(s, &server{fault: fault, engine: pb.NewEngineClient(conn)})
	fmt.Println(lis.Addr().(*net.TCPAddr).Port)
	fmt.Println("listening (this line goes to the log)")
	fmt.Fprintln(os.Stderr, "started with fault", fault)
	_ = s.Serve(lis)
}

func (s *server) Handshake(context.Context, *pb.ProviderHandshakeRequest) (*pb.ProviderHandshakeResponse, error) {
	if s.fault == "legacy" {
		return nil, status.Error(codes.Unimplemented, "no handshake here")
	}
	return &pb.ProviderHandshakeResponse{AcceptSecrets: true, AcceptResources: true}, nil
}

func (s *server) GetPluginInfo(context.Context, *emptypb.Empty) (*pb.PluginInfo, error) {
	return &pb.PluginInfo{Version: "1.2.3"}, nil
}

func (s *server) GetSchema(context.Context, *pb.GetSchemaRequest) (*pb.GetSchemaResponse, error) {
	if log := os.Getenv("PLINTH_FAULT_SCHEMA_LOG"); log != "" { // tests count the calls
		f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, err
		}
		fmt.Fprintln(f, "GetSchema")
		f.Close()
	}
	return &pb.GetSchemaResponse{Schema: `{"name":"fault","version":"1.2.3","resources":{"fault:index:Thing":{"inputProperties":{"value":{"type":"string"}},"requiredInputs":["value"],"properties":{"value":{"type":"string"},"out":{"type":"string","secret":true}}}}}`}, nil
}

func (s *server) Configure(_ context.Context, req *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	if s.fault == "missingconfig" {
		st, _ := status.New(codes.InvalidArgument, "required configuration keys were missing").WithDetails(&pb.ConfigureErrorMissingKeys{
			MissingKeys: []*pb.ConfigureErrorMissingKeys_MissingKey{{Name: "fault:region", Description: "The region to use."}},
		})
		return nil, st.Err()
	}
	if req.GetVariables()["fault:config:region"] != "" {
		fmt.Fprintln(os.Stderr, "configured with variable region", req.GetVariables()["fault:config:region"])
	}
	legacy := s.fault == "legacy"
	return &pb.ConfigureResponse{AcceptSecrets: !legacy, AcceptResources: !legacy, SupportsPreview: !legacy}, nil
}

func (s *server) Check(_ context.Context, req *pb.CheckRequest) (*pb.CheckResponse, error) {
	var failures []*pb.CheckFailure
	if v, ok := req.GetNews().GetFields()["value"]; !ok || v.GetStringValue() == "bad" {
		failures = append(failures, &pb.CheckFailure{Property: "value", Reason: "value must be set and not bad"})
	}
	return &pb.CheckResponse{Inputs: req.GetNews(), Failures: failures}, nil
}

func (s *server) Diff(_ context.Context, req *pb.DiffRequest) (*pb.DiffResponse, error) {
	o, n := req.GetOlds().GetFields()["value"], req.GetNews().GetFields()["value"]
	if o.GetStringValue() == n.GetStringValue() {
		return &pb.DiffResponse{Changes: pb.DiffResponse_DIFF_NONE}, nil
	}
	return &pb.DiffResponse{
		Changes: pb.DiffResponse_DIFF_SOME, Diffs: []string{"value"}, HasDetailedDiff: true,
		DetailedDiff: map[string]*pb.PropertyDiff{"value": {Kind: pb.PropertyDiff_UPDATE, InputDiff: true}},
	}, nil
}

func (s *server) Create(ctx context.Context, req *pb.CreateRequest) (*pb.CreateResponse, error) {
	_, _ = s.engine.Log(ctx, &pb.LogRequest{Severity: pb.LogSeverity_INFO, Message: "creating " + req.GetUrn(), Urn: req.GetUrn()})
	switch s.fault {
	case "crash":
		fmt.Fprintln(os.Stderr, "panic: runtime error: the thing exploded")
		fmt.Fprintln(os.Stderr, "goroutine 7 [running]:")
		os.Exit(2)
	case "hang":
		time.Sleep(time.Hour)
	case "malformed":
		bad := structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{sigKey: structpb.NewStringValue("1b47061264138c4ac30d75fd1eb44270")}})
		return &pb.CreateResponse{Id: "id-bad", Properties: &structpb.Struct{Fields: map[string]*structpb.Value{"out": bad}}}, nil
	case "huge":
		big := structpb.NewStringValue(strings.Repeat("h", 17<<20))
		return &pb.CreateResponse{Id: "id-huge", Properties: &structpb.Struct{Fields: map[string]*structpb.Value{"out": big}}}, nil
	case "noid":
		return &pb.CreateResponse{Properties: req.GetProperties()}, nil
	case "refuse":
		return nil, status.Error(codes.Unknown, "quota exceeded")
	case "initfail":
		st, _ := status.New(codes.Unknown, "the thing did not become healthy").WithDetails(&pb.ErrorResourceInitFailed{
			Id: "id-partial", Properties: withOut(req.GetProperties()), Reasons: []string{"health check failed"},
		})
		return nil, st.Err()
	}
	id := ""
	if !req.GetPreview() {
		id = fmt.Sprintf("id-%d", s.ids.Add(1))
	}
	return &pb.CreateResponse{Id: id, Properties: withOut(req.GetProperties())}, nil
}

// withOut returns the inputs plus an "out" property, secret unless the
// provider pretends not to know secrets.
func withOut(in *structpb.Struct) *structpb.Struct {
	fields := map[string]*structpb.Value{}
	for k, v := range in.GetFields() {
		fields[k] = v
	}
	fields["out"] = structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
		sigKey: structpb.NewStringValue("1b47061264138c4ac30d75fd1eb44270"), "value": structpb.NewStringValue("computed"),
	}})
	return &structpb.Struct{Fields: fields}
}

func (s *server) Read(_ context.Context, req *pb.ReadRequest) (*pb.ReadResponse, error) {
	if req.GetId() == "gone" {
		return &pb.ReadResponse{}, nil
	}
	return &pb.ReadResponse{Id: req.GetId(), Properties: req.GetProperties(), Inputs: req.GetInputs()}, nil
}

func (s *server) Update(_ context.Context, req *pb.UpdateRequest) (*pb.UpdateResponse, error) {
	return &pb.UpdateResponse{Properties: withOut(req.GetNews())}, nil
}

func (s *server) Delete(context.Context, *pb.DeleteRequest) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

func (s *server) Invoke(_ context.Context, req *pb.InvokeRequest) (*pb.InvokeResponse, error) {
	return &pb.InvokeResponse{Return: req.GetArgs()}, nil
}

func (s *server) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	s.cancels.Add(1)
	fmt.Fprintln(os.Stderr, "cancel received")
	return &emptypb.Empty{}, nil
}

// Construct answers with a URN made of what it was sent and, as the
// component's outputs, the inputs and the options it received, so the
// adapter's test can see every field arrive.
func (s *server) Construct(_ context.Context, req *pb.ConstructRequest) (*pb.ConstructResponse, error) {
	var aliases []any
	for _, a := range req.GetAliases() {
		aliases = append(aliases, a.GetUrn())
	}
	seen, err := structpb.NewStruct(map[string]any{
		"monitor": req.GetMonitorEndpoint(), "project": req.GetProject(), "stack": req.GetStack(),
		"config": req.GetConfig()["fault:region"], "parent": req.GetParent(), "protect": req.GetProtect(),
		"dependsOn": strings.Join(req.GetDependencies(), ","), "aliases": aliases,
		"providers": req.GetProviders()["fault"], "deps": strings.Join(req.GetInputDependencies()["value"].GetUrns(), ","),
		"timeout": req.GetCustomTimeouts().GetCreate(),
	})
	if err != nil {
		return nil, err
	}
	state := req.GetInputs()
	state.Fields["seen"] = structpb.NewStructValue(seen)
	urn := "urn:pulumi:" + req.GetStack() + "::" + req.GetProject() + "::" + req.GetType() + "::" + req.GetName()
	return &pb.ConstructResponse{Urn: urn, State: state,
		StateDependencies: map[string]*pb.ConstructResponse_PropertyDependencies{"value": {Urns: req.GetInputDependencies()["value"].GetUrns()}}}, nil
}

// Call returns its arguments and the monitor's address.
func (s *server) Call(_ context.Context, req *pb.CallRequest) (*pb.CallResponse, error) {
	ret := req.GetArgs()
	ret.Fields["monitor"] = structpb.NewStringValue(req.GetMonitorEndpoint())
	return &pb.CallResponse{Return: ret,
		ReturnDependencies: map[string]*pb.CallResponse_ReturnDependencies{"x": {Urns: req.GetArgDependencies()["x"].GetUrns()}}}, nil
}

// logEnv writes the plugin's collector settings (GOGC and GOMEMLIMIT,
// each "=value" or " unset") to $PLINTH_FAULT_ENV_LOG, if set, so tests
// see the environment plinth started it with.
func logEnv() {
	path := os.Getenv("PLINTH_FAULT_ENV_LOG")
	if path == "" {
		return
	}
	var b strings.Builder
	for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
		if v, ok := os.LookupEnv(k); ok {
			fmt.Fprintf(&b, "%s=%s\n", k, v)
		} else {
			fmt.Fprintf(&b, "%s unset\n", k)
		}
	}
	_ = os.WriteFile(path, []byte(b.String()), 0o644)
}
