package grpcplugin_test

import (
	"context"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin/framecount"
)

// TestDialSendsNoPings: a connection made by Dial sends no PING of its
// own however many answers it reads (gRPC's bandwidth estimation, which
// pings on nearly every answer of a slow run of calls, is off: Window).
func TestDialSendsNoPings(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	healthpb.RegisterHealthServer(srv, health.NewServer())
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	proxy := framecount.Start(t, lis.Addr().String())
	conn, err := grpcplugin.Dial("health", "health", proxy.Port())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := healthpb.NewHealthClient(conn)
	for range 20 {
		if _, err := client.Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil {
			t.Fatal(err)
		}
	}
	if n := proxy.ClientPings.Load(); n != 0 {
		t.Errorf("the client sent %d PINGs over 20 calls, want none", n)
	}
}
