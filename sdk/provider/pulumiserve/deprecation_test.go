package pulumiserve

import (
	"context"
	"net"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/sdk/provider"
)

// fakeEngine is the engine's Engine service, keeping what it is told to
// log.
type fakeEngine struct {
	pb.UnimplementedEngineServer
	mu   sync.Mutex
	logs []string
}

func (e *fakeEngine) Log(_ context.Context, req *pb.LogRequest) (*emptypb.Empty, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.logs = append(e.logs, req.GetSeverity().String()+" "+req.GetUrn()+": "+req.GetMessage())
	return &emptypb.Empty{}, nil
}

// startEngine serves a fakeEngine on a loopback port.
func startEngine(t *testing.T) (*fakeEngine, string) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e := &fakeEngine{}
	gs := grpc.NewServer()
	pb.RegisterEngineServer(gs, e)
	go func() { _ = gs.Serve(lis) }()
	t.Cleanup(gs.Stop)
	return e, lis.Addr().String()
}

type oldConfig struct {
	Zone string `plinth:"zone,optional" deprecated:"Use region."`
}

type oldPort struct {
	Number int    `plinth:"number"`
	Legacy string `plinth:"legacy,optional" deprecated:"Ports have no legacy mode."`
}

type oldArgs struct {
	Name   string             `plinth:"name"`
	Owner  string             `plinth:"owner,optional" deprecated:"Use tags instead."`
	Main   *oldPort           `plinth:"main,optional"`
	Ports  []oldPort          `plinth:"ports,optional"`
	ByName map[string]oldPort `plinth:"byName,optional"`
}

type oldState struct{ oldArgs }

type oldThing struct{}

func (oldThing) Create(_ context.Context, op provider.CreateOp[oldArgs]) (provider.CreateResult[oldState], error) {
	return provider.CreateResult[oldState]{ID: op.Inputs.Name, Outputs: oldState{op.Inputs}}, nil
}

// TestCheckWarnsOfDeprecatedProperties: Check and CheckConfig log a
// warning through the engine, on the resource's URN, for each deprecated
// property the program sets, at its path however deep; nothing for the
// ones left out. The pulumi CLI and its YAML host do not warn themselves.
func TestCheckWarnsOfDeprecatedProperties(t *testing.T) {
	const urn = "urn:pulumi:dev::proj::old:index:Thing::t"
	const provURN = "urn:pulumi:dev::proj::pulumi:providers:old::default"
	tests := map[string]struct {
		config bool
		news   map[string]any
		want   []string
	}{
		"none set": {news: map[string]any{"name": "a", "main": map[string]any{"number": 1}}},
		"top level": {news: map[string]any{"name": "a", "owner": "me"},
			want: []string{"WARNING " + urn + ": owner is deprecated: Use tags instead."}},
		"nested": {
			news: map[string]any{"name": "a",
				"main":   map[string]any{"number": 1, "legacy": "x"},
				"ports":  []any{map[string]any{"number": 2}, map[string]any{"number": 3, "legacy": "y"}},
				"byName": map[string]any{"b": map[string]any{"number": 4, "legacy": "z"}}},
			want: []string{
				"WARNING " + urn + `: byName["b"].legacy is deprecated: Ports have no legacy mode.`,
				"WARNING " + urn + ": main.legacy is deprecated: Ports have no legacy mode.",
				"WARNING " + urn + ": ports[1].legacy is deprecated: Ports have no legacy mode.",
			}},
		"configuration": {config: true, news: map[string]any{"zone": "z1"},
			want: []string{"WARNING " + provURN + ": zone is deprecated: Use region."}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p, err := provider.New(provider.Info{Name: "old", Version: "1.0.0"},
				provider.WithConfig[oldConfig](),
				provider.WithResource[oldArgs, oldState]("old:index:Thing", oldThing{}, "A thing."))
			if err != nil {
				t.Fatal(err)
			}
			engine, addr := startEngine(t)
			s := NewServer(p, addr)
			if _, err := s.Configure(context.Background(), &pb.ConfigureRequest{Args: &structpb.Struct{}}); err != nil {
				t.Fatal(err)
			}
			news, err := structpb.NewStruct(tc.news)
			if err != nil {
				t.Fatal(err)
			}
			if tc.config {
				_, err = s.CheckConfig(context.Background(), &pb.CheckRequest{Urn: provURN, News: news})
			} else {
				_, err = s.Check(context.Background(), &pb.CheckRequest{Urn: urn, News: news})
			}
			if err != nil {
				t.Fatal(err)
			}
			engine.mu.Lock()
			defer engine.mu.Unlock()
			if diff := cmp.Diff(tc.want, engine.logs); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}
