package monitor_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/internal/monitor"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin/framecount"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestSupportsFeature: every feature the Node.js SDK probes is answered
// true, either because plinth honours it or because plinth refuses it at
// the point of use with its own error. An SDK told false throws "The
// Pulumi CLI does not support ... Please update the Pulumi CLI", which
// sends a plinth user the wrong way.
func TestSupportsFeature(t *testing.T) {
	_, _, c, _, _ := client(t)
	// The keys of legacyFeatureMapping in @pulumi/pulumi 3.262's
	// runtime/settings.js, and one no SDK asks about.
	ids := []string{"secrets", "resourceReferences", "outputValues", "deletedWith", "replaceWith", "aliasSpecs",
		"transforms", "invokeTransforms", "parameterization", "resourceHooks", "errorHooks", "noSuchFeature"}
	want := map[string]bool{}
	got := map[string]bool{}
	for _, id := range ids {
		want[id] = id != "noSuchFeature"
		resp, err := c.SupportsFeature(context.Background(), &pulumirpc.SupportsFeatureRequest{Id: id})
		if err != nil {
			t.Fatalf("SupportsFeature(%s): %v", id, err)
		}
		got[id] = resp.GetHasSupport()
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("features (-want +got):\n%s", diff)
	}
}

// TestUnsupportedFeatureRefusedByPlinth: a feature answered true that
// plinth does not serve fails where the program uses it, with an error
// naming plinth and the feature, recorded as the operation's error.
// (Transforms and resource and error hooks are served: see
// TestTransforms, TestHooks, TestDeleteHooks and TestErrorHooks.)
func TestUnsupportedFeatureRefusedByPlinth(t *testing.T) {
	ctx := context.Background()
	cases := map[string]struct {
		call func(pulumirpc.ResourceMonitorClient) error
		want string
	}{
		"parameterized package": {func(c pulumirpc.ResourceMonitorClient) error {
			_, err := c.RegisterPackage(ctx, &pulumirpc.RegisterPackageRequest{Name: "terraform-provider", Version: "1.0.0"})
			return err
		}, "parameterized package terraform-provider 1.0.0"},
		"replaceWith": {func(c pulumirpc.ResourceMonitorClient) error {
			registerRoot(t, c)
			_, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: "p", Custom: true,
				Object: &structpb.Struct{}, ReplaceWith: []string{"urn:pulumi:dev::proj::plinth:random:Pet::q"}})
			return err
		}, "replaceWith option, which plinth does not support"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, srv, c, _, _ := client(t)
			err := tc.call(c)
			if err == nil || !strings.Contains(err.Error(), "plinth") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want one naming plinth and %q", err, tc.want)
			}
			if code := status.Code(err); code != codes.Unimplemented && code != codes.InvalidArgument {
				t.Errorf("code = %v, want Unimplemented or InvalidArgument", code)
			}
			if srv.Err() == nil || !strings.Contains(srv.Err().Error(), tc.want) {
				t.Errorf("the operation's error = %v, want the refusal", srv.Err())
			}
			select {
			case <-srv.Failed():
			default:
				t.Error("the operation is not marked failed")
			}
		})
	}
}

// TestMonitorSendsNoPings: the monitor sends no PING of its own however
// many requests it reads (gRPC's bandwidth estimation, which pings on
// nearly every request of a program registering resources one by one, is
// off: grpcplugin.Window).
func TestMonitorSendsNoPings(t *testing.T) {
	srv, err := monitor.Start(&fakeMonitor{outputs: map[resource.URN]resource.Object{}}, monitor.Config{Stack: "dev", Project: "proj"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	proxy := framecount.Start(t, srv.Addr())
	conn, err := grpc.NewClient(proxy.Addr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := pulumirpc.NewResourceMonitorClient(conn)
	for range 20 {
		if _, err := c.SupportsFeature(context.Background(), &pulumirpc.SupportsFeatureRequest{Id: "secrets"}); err != nil {
			t.Fatal(err)
		}
	}
	if n := proxy.ServerPings.Load(); n != 0 {
		t.Errorf("the monitor sent %d PINGs over 20 requests, want none", n)
	}
}
