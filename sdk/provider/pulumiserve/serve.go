package pulumiserve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"

	"github.com/plinth-iac/plinth/sdk/provider"
)

// Options configure Serve. The zero value serves on a free loopback port
// and prints it to stdout.
type Options struct {
	// Listener to serve on; a free port on 127.0.0.1 if nil.
	Listener net.Listener
	// PortOut receives the port line; os.Stdout if nil.
	PortOut io.Writer
	// EngineAddress is the engine's address from the command line, if any.
	EngineAddress string
	// ShutdownGrace bounds how long calls in flight may run once shutdown
	// starts; 10s if zero.
	ShutdownGrace time.Duration
}

// window is the server's fixed HTTP/2 flow-control window. Setting one
// turns off gRPC's bandwidth-delay estimation, which otherwise answers
// nearly every request of an engine's slow run of small calls with a
// PING and its ack, a write and a read more on each side of every call,
// for a bandwidth that over loopback there is no need to estimate.
const window = 4 << 20

// streamWorkers is how many goroutines serve calls. gRPC otherwise starts
// a goroutine per call, whose stack then grows as it decodes the request:
// a tenth of a plugin's CPU in an engine's run of small calls went to
// copying stacks. Workers keep their grown stacks. 16 per CPU is as many
// calls as plinth's engine has in flight by default
// (engine.DefaultParallel); a call that finds every worker busy still gets
// a goroutine of its own.
func streamWorkers() uint32 { return uint32(16 * runtime.GOMAXPROCS(0)) }

// Main serves p as a plugin until the engine closes it or the process gets
// SIGINT or SIGTERM, then exits. The engine address is the last argument.
func Main(p provider.Provider) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := Options{}
	if len(os.Args) > 1 {
		opts.EngineAddress = os.Args[len(os.Args)-1]
	}
	if err := Serve(ctx, p, opts); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

// Serve serves p until ctx is done, then cancels work in flight and stops
// gracefully (forcibly after the grace period).
func Serve(ctx context.Context, p provider.Provider, opts Options) error {
	lis := opts.Listener
	if lis == nil {
		var err error
		if lis, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			return fmt.Errorf("listening on a loopback port: %w", err)
		}
	}
	out := opts.PortOut
	if out == nil {
		out = os.Stdout
	}
	gs := grpc.NewServer(grpc.MaxRecvMsgSize(400*1024*1024), grpc.MaxSendMsgSize(400*1024*1024),
		grpc.InitialWindowSize(window), grpc.InitialConnWindowSize(window),
		grpc.NumStreamWorkers(streamWorkers()), grpc.ForceServerCodecV2(Codec))
	srv := NewServer(p, opts.EngineAddress)
	srv.wire = true
	pb.RegisterResourceProviderServer(gs, srv)
	if _, err := fmt.Fprintf(out, "%d\n", lis.Addr().(*net.TCPAddr).Port); err != nil {
		return fmt.Errorf("printing the port: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- gs.Serve(lis) }()
	select {
	case err := <-done:
		if errors.Is(err, grpc.ErrServerStopped) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	shutdown(gs, p, opts.ShutdownGrace)
	return nil
}

// shutdown cancels the provider's work, lets calls in flight finish and
// stops the server, forcibly after grace.
func shutdown(gs *grpc.Server, p provider.Provider, grace time.Duration) {
	if grace <= 0 {
		grace = 10 * time.Second
	}
	_, _ = p.Cancel(context.Background(), provider.CancelRequest{})
	stopped := make(chan struct{})
	go func() {
		gs.GracefulStop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(grace):
		gs.Stop()
	}
}
