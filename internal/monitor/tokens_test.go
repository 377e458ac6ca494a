package monitor_test

import (
	"context"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/monitor"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
)

// rpcProgram is a Pulumi program played over the monitor's gRPC service,
// as a language SDK would send it, served over the real engine.
type rpcProgram func(ctx context.Context, c pulumirpc.ResourceMonitorClient) error

func (p rpcProgram) Run(ctx context.Context, mon engine.Monitor) error {
	srv, err := monitor.Start(mon, monitor.Config{Stack: "dev", Project: "proj"})
	if err != nil {
		return err
	}
	defer srv.Close()
	conn, err := grpc.NewClient(srv.Addr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	return p(ctx, pulumirpc.NewResourceMonitorClient(conn))
}

// countingSource starts a fake provider for any package, counting starts.
type countingSource struct {
	mu      sync.Mutex
	started []string
}

func (s *countingSource) NewProvider(_ context.Context, req engine.ProviderRequest) (provider.Provider, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.started = append(s.started, req.Package)
	return &provider.Fake{}, nil
}

// update runs prog over a file-backed session and returns the backend.
func update(t *testing.T, prog rpcProgram, src engine.ProviderSource) (state.Backend, error) {
	t.Helper()
	ctx := context.Background()
	b := file.New(t.TempDir())
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{Command: "up", Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = engine.Update(ctx, prog, s.Base(), engine.Options{Stack: "dev", Project: "proj", Providers: src, Journal: s})
	if cerr := s.Close(ctx); cerr != nil {
		t.Fatal(cerr)
	}
	return b, err
}

// TestPulumiTokensThroughTheMonitor registers over gRPC what the issue's
// Node.js program registers: a pulumi.dynamic.Resource (package
// pulumi-nodejs, so its default provider is pulumi:providers:pulumi-nodejs)
// under a component my:module:ComponentSixParent-v10, a component of type
// "component", and an explicit ProviderResource of azure-native with a
// resource. The state the update wrote loads back with the loader's
// integrity check.
func TestPulumiTokensThroughTheMonitor(t *testing.T) {
	prog := rpcProgram(func(ctx context.Context, c pulumirpc.ResourceMonitorClient) error {
		stack, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: monitor.StackType, Name: "proj-dev"})
		if err != nil {
			return err
		}
		reg := func(req *pulumirpc.RegisterResourceRequest) *pulumirpc.RegisterResourceResponse {
			if req.Parent == "" {
				req.Parent = stack.GetUrn()
			}
			resp, err := c.RegisterResource(ctx, req)
			if err != nil {
				t.Errorf("registering %s %s: %v", req.Type, req.Name, err)
				return &pulumirpc.RegisterResourceResponse{}
			}
			return resp
		}
		six := reg(&pulumirpc.RegisterResourceRequest{Type: "my:module:ComponentSixParent-v10", Name: "six"})
		reg(&pulumirpc.RegisterResourceRequest{Type: "pulumi-nodejs:dynamic:Resource", Name: "dyn", Custom: true, Parent: six.GetUrn(),
			Object: obj(t, map[string]any{"__provider": "exports.handler = ...", "x": "1"})})
		comp := reg(&pulumirpc.RegisterResourceRequest{Type: "component", Name: "comp"})
		reg(&pulumirpc.RegisterResourceRequest{Type: "my:module:ComponentSixParent-v10", Name: "inner", Parent: comp.GetUrn()})
		az := reg(&pulumirpc.RegisterResourceRequest{Type: "pulumi:providers:azure-native", Name: "az", Custom: true})
		reg(&pulumirpc.RegisterResourceRequest{Type: "azure-native:storage:StorageAccount", Name: "sa", Custom: true,
			Provider: az.GetUrn() + "::" + az.GetId()})
		return nil
	})
	b, err := update(t, prog, &countingSource{})
	if err != nil {
		t.Fatalf("up: %v", err)
	}
	snap, err := state.Load(context.Background(), b, "dev", state.OpenOptions{Verify: true})
	if err != nil {
		t.Fatalf("the state the update wrote does not load: %v", err)
	}
	var got []string
	for _, r := range snap.Resources {
		got = append(got, string(r.URN))
	}
	sort.Strings(got)
	want := []string{
		"urn:pulumi:dev::proj::azure-native:storage:StorageAccount::sa",
		"urn:pulumi:dev::proj::component$my:module:ComponentSixParent-v10::inner",
		"urn:pulumi:dev::proj::component::comp",
		"urn:pulumi:dev::proj::my:module:ComponentSixParent-v10$pulumi-nodejs:dynamic:Resource::dyn",
		"urn:pulumi:dev::proj::my:module:ComponentSixParent-v10::six",
		"urn:pulumi:dev::proj::pulumi:providers:azure-native::az",
		"urn:pulumi:dev::proj::pulumi:providers:pulumi-nodejs::default",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("recorded (-want +got):\n%s", diff)
	}
}

// TestMonitorRefusesAnUnrecordableToken: a registration whose type the
// loader would refuse is answered InvalidArgument, as Pulumi's engine
// answers a malformed type, naming the resource and the type; no
// provider is started and nothing is recorded.
func TestMonitorRefusesAnUnrecordableToken(t *testing.T) {
	var got error
	prog := rpcProgram(func(ctx context.Context, c pulumirpc.ResourceMonitorClient) error {
		_, got = c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "pkg:index:A$B", Name: "x", Custom: true})
		return got
	})
	src := &countingSource{}
	b, err := update(t, prog, src)
	if err == nil {
		t.Fatal("the update succeeded")
	}
	if status.Code(got) != codes.InvalidArgument || !strings.Contains(got.Error(), `"x"`) || !strings.Contains(got.Error(), `"pkg:index:A$B"`) {
		t.Errorf("RegisterResource: %v, want InvalidArgument naming resource \"x\" and type \"pkg:index:A$B\"", got)
	}
	if len(src.started) != 0 {
		t.Errorf("providers started: %v", src.started)
	}
	snap, err := state.Load(context.Background(), b, "dev", state.OpenOptions{Verify: true})
	if err != nil || len(snap.Resources)+len(snap.Pending) != 0 {
		t.Errorf("state after the refusal: %v, %d resources, %d pending", err, len(snap.Resources), len(snap.Pending))
	}
}
