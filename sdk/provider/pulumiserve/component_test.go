package pulumiserve

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// fakeMonitor is a resource monitor that records what it is asked: it
// answers registrations with URNs made from parent, type and name, gives
// custom resources the ID "id-NAME", echoes their inputs as outputs, and
// refuses a resource named "bad".
type fakeMonitor struct {
	pb.UnimplementedResourceMonitorServer
	mu      sync.Mutex
	regs    []string // "custom|type|name|parent|providers"
	outputs map[string]*structpb.Struct
}

func (m *fakeMonitor) RegisterResource(_ context.Context, req *pb.RegisterResourceRequest) (*pb.RegisterResourceResponse, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	provs, _ := json.Marshal(req.GetProviders())
	m.regs = append(m.regs, strings.Join([]string{map[bool]string{true: "custom", false: "component"}[req.GetCustom()],
		req.GetType(), req.GetName(), req.GetParent(), string(provs)}, "|"))
	if req.GetName() == "bad" {
		return nil, status.Error(3, "the provider refused bad")
	}
	urn := "urn:pulumi:dev::p::" + req.GetType() + "::" + req.GetName()
	if !req.GetCustom() {
		return &pb.RegisterResourceResponse{Urn: urn}, nil
	}
	return &pb.RegisterResourceResponse{Urn: urn, Id: "id-" + req.GetName(), Object: req.GetObject()}, nil
}

func (m *fakeMonitor) RegisterResourceOutputs(_ context.Context, req *pb.RegisterResourceOutputsRequest) (*emptypb.Empty, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.outputs == nil {
		m.outputs = map[string]*structpb.Struct{}
	}
	m.outputs[req.GetUrn()] = req.GetOutputs()
	return &emptypb.Empty{}, nil
}

func startMonitor(t *testing.T) (*fakeMonitor, string) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &fakeMonitor{}
	gs := grpc.NewServer()
	pb.RegisterResourceMonitorServer(gs, m)
	go func() { _ = gs.Serve(lis) }()
	t.Cleanup(gs.Stop)
	return m, lis.Addr().String()
}

type pairArgs struct {
	Names []string `plinth:"names"`
}

type pairOutputs struct {
	IDs []string `plinth:"ids"`
}

// pair registers a test:index:Box per name and returns their IDs.
func pair(ctx context.Context, c provider.ComponentContext, in resource.Object) (resource.Object, error) {
	var ids []resource.Value
	for _, n := range in["names"].Array() {
		r, err := c.Register(ctx, "test:index:Box", n.Str(), resource.Object{"name": n}, provider.ReplaceOnChanges("name"))
		if err != nil {
			return nil, err
		}
		ids = append(ids, resource.NewString(r.ID))
	}
	return resource.Object{"ids": resource.NewArray(ids...)}, nil
}

func newComponentServer(t *testing.T) *Server {
	p, err := provider.New(provider.Info{Name: "test"},
		provider.WithResource[boxArgs, boxState]("test:index:Box", box{}, "A box."),
		provider.WithComponent[pairArgs, pairOutputs]("test:index:Pair", provider.ComponentFunc(pair), "Two boxes."),
		provider.WithMethod("test:index:Pair/greet", greet, "Greets from the component."))
	if err != nil {
		t.Fatal(err)
	}
	return NewServer(p, "")
}

// TestConstructThroughMonitor: Construct registers the component under
// the parent it is given, its children under the component with the
// providers passed through, records the outputs, and answers with both.
func TestConstructThroughMonitor(t *testing.T) {
	mon, addr := startMonitor(t)
	s := newComponentServer(t)
	inputs, _ := structpb.NewStruct(map[string]any{"names": []any{"a", "b"}})
	resp, err := s.Construct(context.Background(), &pb.ConstructRequest{
		MonitorEndpoint: addr, Type: "test:index:Pair", Name: "p", Parent: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev",
		Inputs: inputs, Providers: map[string]string{"test": "urn:prov::id1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	comp := "urn:pulumi:dev::p::test:index:Pair::p"
	want := []string{
		`component|test:index:Pair|p|urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev|{"test":"urn:prov::id1"}`,
		`custom|test:index:Box|a|` + comp + `|{"test":"urn:prov::id1"}`,
		`custom|test:index:Box|b|` + comp + `|{"test":"urn:prov::id1"}`,
	}
	if diff := cmp.Diff(want, mon.regs); diff != "" {
		t.Errorf("registrations (-want +got):\n%s", diff)
	}
	if resp.GetUrn() != comp {
		t.Errorf("URN = %q, want %q", resp.GetUrn(), comp)
	}
	wantOuts := map[string]any{"ids": []any{"id-a", "id-b"}}
	if diff := cmp.Diff(wantOuts, resp.GetState().AsMap()); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantOuts, mon.outputs[comp].AsMap()); diff != "" {
		t.Errorf("recorded outputs (-want +got):\n%s", diff)
	}
}

// TestConstructChildRefused: a child the monitor refuses fails Construct
// with the component, the child and the monitor's reason.
func TestConstructChildRefused(t *testing.T) {
	_, addr := startMonitor(t)
	s := newComponentServer(t)
	inputs, _ := structpb.NewStruct(map[string]any{"names": []any{"bad"}})
	_, err := s.Construct(context.Background(), &pb.ConstructRequest{MonitorEndpoint: addr, Type: "test:index:Pair", Name: "p", Inputs: inputs})
	for _, want := range []string{"test:index:Pair p", "registering test:index:Box bad under urn:pulumi:dev::p::test:index:Pair::p", "the provider refused bad"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not say %q", err, want)
		}
	}
}

// TestConstructWithoutComponents: a provider without components answers
// Unimplemented; one asked for a type it lacks names its components.
func TestConstructWithoutComponents(t *testing.T) {
	_, addr := startMonitor(t)
	_, err := NewServer(newTestProvider(), "").Construct(context.Background(), &pb.ConstructRequest{MonitorEndpoint: addr, Type: "test:index:Pair"})
	if status.Code(err) != 12 {
		t.Errorf("Construct on a provider without components: %v, want Unimplemented", err)
	}
	_, err = newComponentServer(t).Construct(context.Background(), &pb.ConstructRequest{MonitorEndpoint: addr, Type: "test:index:Nope", Name: "n"})
	if err == nil || !strings.Contains(err.Error(), `no component type "test:index:Nope" (its components are test:index:Pair)`) {
		t.Errorf("Construct of an unknown type: %v", err)
	}
}

// TestComponentSchema: a component is isComponent in the Pulumi schema,
// with its inputs and outputs, and its methods listed (they were not) as
// Pulumi lists them: names to tokens, a function each with __self__.
func TestComponentSchema(t *testing.T) {
	resp, err := newComponentServer(t).GetSchema(context.Background(), &pb.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var spec Spec
	if err := json.Unmarshal([]byte(resp.GetSchema()), &spec); err != nil {
		t.Fatal(err)
	}
	r := spec.Resources["test:index:Pair"]
	if !r.IsComponent || r.InputProperties["names"].Type != "array" || r.Properties["ids"].Type != "array" {
		t.Errorf("the component's schema is %+v", r)
	}
	if spec.Resources["test:index:Box"].IsComponent {
		t.Error("a custom resource is marked isComponent")
	}
	if got := r.Methods["greet"]; got != "test:index:Pair/greet" {
		t.Errorf("the component's methods are %v, want greet: test:index:Pair/greet", r.Methods)
	}
	fn := spec.Functions["test:index:Pair/greet"]
	if fn.Description != "Greets from the component." || fn.Inputs == nil || fn.Inputs.Properties["__self__"].Ref != "#/resources/test:index:Pair" {
		t.Errorf("the method's function is %+v, want its doc and __self__ referring to the component", fn)
	}
}

func greet(_ context.Context, self resource.Value, args resource.Object) (resource.Object, error) {
	return resource.Object{"text": resource.NewString("hello " + args["who"].Str() + " from " + self.Str())}, nil
}

// TestCallMethod: Call hands the method its component (__self__) and
// arguments and returns its result; an unknown method names the known.
func TestCallMethod(t *testing.T) {
	s := newComponentServer(t)
	args, _ := structpb.NewStruct(map[string]any{"__self__": "urn:p", "who": "ann"})
	resp, err := s.Call(context.Background(), &pb.CallRequest{Tok: "test:index:Pair/greet", Args: args})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"text": "hello ann from urn:p"}, resp.GetReturn().AsMap()); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	_, err = s.Call(context.Background(), &pb.CallRequest{Tok: "test:index:Pair/nope", Args: args})
	if err == nil || !strings.Contains(err.Error(), `no method "test:index:Pair/nope" (its methods are test:index:Pair/greet)`) {
		t.Errorf("an unknown method gave %v", err)
	}
}
