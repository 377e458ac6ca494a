package pulumiserve

import (
	"context"
	"io"
	"net"
	"testing"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/plinth-iac/plinth/internal/provider/grpcplugin/framecount"
)

// TestServeSendsNoPings: the plugin sends no PING of its own however many
// requests it reads (gRPC's bandwidth estimation, which pings on nearly
// every request of a slow run of calls, is off: window).
func TestServeSendsNoPings(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, newTestProvider(), Options{Listener: lis, PortOut: io.Discard}) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	proxy := framecount.Start(t, lis.Addr().String())
	conn, err := grpc.NewClient(proxy.Addr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := pb.NewResourceProviderClient(conn)
	for range 20 {
		if _, err := client.GetPluginInfo(context.Background(), &emptypb.Empty{}); err != nil {
			t.Fatal(err)
		}
	}
	if n := proxy.ServerPings.Load(); n != 0 {
		t.Errorf("the plugin sent %d PINGs over 20 requests, want none", n)
	}
}
