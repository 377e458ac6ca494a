package monitor_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/monitor"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/program/yaml"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/inproc"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/providers/plinth"
)

// builtins serves plinth's built-in provider in process.
type builtins struct{}

func (builtins) NewProvider(context.Context, engine.ProviderRequest) (provider.Provider, error) {
	return inproc.New(plinth.New()), nil
}

const benchN = 2000

// BenchmarkFrontEnd creates 2,000 built-in resources (random pets) with
// engine.Update, registered by the YAML front end and through the
// resource monitor by a gRPC client that sends them all at once as an SDK
// does. The client runs in a process of its own (this test binary again,
// see TestMonitorClientProcess), as a language SDK does, so that cpu-ms/op
// is plinth's alone; client-cpu-ms/op is the client's. The difference
// between the two cpu-ms/op is what the monitor costs; the cost of a
// language SDK itself is measured by examples' BenchmarkFrontEnds.
func BenchmarkFrontEnd(b *testing.B) {
	var y strings.Builder
	y.WriteString("name: bench\nresources:\n")
	for i := range benchN {
		fmt.Fprintf(&y, "  r%d:\n    type: plinth:random:Pet\n    properties: { length: 2 }\n", i)
	}
	proj, err := yaml.Parse("plinth.yaml", b.TempDir(), []byte(y.String()))
	if err != nil {
		b.Fatal(err)
	}
	ev, err := proj.Program(nil, program.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("yaml", func(b *testing.B) { benchUpdate(b, ev) })
	b.Run("monitor", func(b *testing.B) { benchUpdate(b, engine.ProgramFunc(clientProcess)) })
	b.Run("host", func(b *testing.B) { benchUpdate(b, engine.ProgramFunc(hostProcess)) })
}

func benchUpdate(b *testing.B, prog engine.Program) {
	b.ReportAllocs()
	cpu0, child0 := cpuTime(syscall.RUSAGE_SELF), cpuTime(syscall.RUSAGE_CHILDREN)
	defer func() {
		b.ReportMetric(float64((cpuTime(syscall.RUSAGE_SELF)-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
		b.ReportMetric(float64((cpuTime(syscall.RUSAGE_CHILDREN)-child0).Milliseconds())/float64(b.N), "client-cpu-ms/op")
	}()
	for b.Loop() {
		res, err := engine.Update(context.Background(), prog, nil, engine.Options{Stack: "dev", Project: "bench",
			Providers: builtins{}, Journal: state.NewMemoryJournal(nil)})
		if err != nil {
			b.Fatal(err)
		}
		if res.Counts[engine.OpCreate] != benchN {
			b.Fatalf("created %d, want %d", res.Counts[engine.OpCreate], benchN)
		}
	}
}

// cpuTime is the CPU time (user and system) who (RUSAGE_SELF, or
// RUSAGE_CHILDREN: the children waited for) has used: on a loaded
// machine it says more than the wall time b reports.
func cpuTime(who int) time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(who, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// clientAddrEnv tells this test binary, run again, to be the client of
// the monitor at that address.
const clientAddrEnv = "PLINTH_BENCH_MONITOR_CLIENT"

// clientShapeEnv says which client TestMonitorClientProcess is: "all"
// (grpcProgram) or "host" (hostProgram).
const clientShapeEnv = "PLINTH_BENCH_MONITOR_SHAPE"

// clientProcess serves a monitor and runs the client (grpcProgram) in a
// process of its own, as a language host runs a program.
func clientProcess(ctx context.Context, mon engine.Monitor) error {
	return runClient(ctx, mon, "all")
}

// hostProcess is clientProcess with the client shaped as
// pulumi-language-yaml is (hostProgram).
func hostProcess(ctx context.Context, mon engine.Monitor) error {
	return runClient(ctx, mon, "host")
}

// runClient serves a monitor and runs the client of the given shape in a
// process of its own.
func runClient(ctx context.Context, mon engine.Monitor, shape string) error {
	srv, err := monitor.Start(mon, monitor.Config{Stack: "dev", Project: "bench"})
	if err != nil {
		return err
	}
	defer srv.Close()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestMonitorClientProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), clientAddrEnv+"="+srv.Addr(), clientShapeEnv+"="+shape)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("the client process failed: %v\n%s", err, out)
	}
	return nil
}

// TestMonitorClientProcess is BenchmarkFrontEnd's client when run by
// clientProcess; otherwise it does nothing.
func TestMonitorClientProcess(t *testing.T) {
	addr := os.Getenv(clientAddrEnv)
	if addr == "" {
		return
	}
	run := grpcProgram
	if os.Getenv(clientShapeEnv) == "host" {
		run = hostProgram
	}
	if err := run(context.Background(), addr); err != nil {
		t.Fatal(err)
	}
}

// grpcProgram registers benchN pets through the monitor at addr, as the
// Node.js SDK does: the stack first, then every resource concurrently.
func grpcProgram(ctx context.Context, addr string) error {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	c := pulumirpc.NewResourceMonitorClient(conn)
	root, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: monitor.StackType, Name: "bench-dev"})
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	errs := make(chan error, benchN)
	for i := range benchN {
		wg.Go(func() {
			obj, _ := structpb.NewStruct(map[string]any{"length": 2})
			_, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: fmt.Sprint("r", i),
				Custom: true, Parent: root.GetUrn(), Object: obj, AcceptSecrets: true, AcceptResources: true})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// hostPace is the interval between two registrations of hostProgram: the
// YAML language host spends most of a millisecond of its own CPU on each,
// so they reach the monitor spread out, one or a few at a time.
const hostPace = 200 * time.Microsecond

// hostProgram registers benchN pets as pulumi-language-yaml does: each
// request carries the source position and stack trace its Go SDK adds and
// the property dependencies of every input, each is preceded by a debug
// log, and they are sent one at a time, hostPace apart, without waiting
// for the answers.
func hostProgram(ctx context.Context, addr string) error {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	c, eng := pulumirpc.NewResourceMonitorClient(conn), pulumirpc.NewEngineClient(conn)
	root, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: monitor.StackType, Name: "bench-dev"})
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*benchN)
	tick := time.NewTicker(hostPace)
	defer tick.Stop()
	for i := range benchN {
		<-tick.C
		name := fmt.Sprint("r", i)
		wg.Go(func() {
			_, err := eng.Log(ctx, &pulumirpc.LogRequest{Severity: pulumirpc.LogSeverity_DEBUG, Message: "Registering resource " + name})
			errs <- err
		})
		wg.Go(func() {
			_, err := c.RegisterResource(ctx, hostRequest(root.GetUrn(), name))
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// hostRequest is a pet's registration as pulumi-language-yaml sends it.
func hostRequest(parent, name string) *pulumirpc.RegisterResourceRequest {
	obj, _ := structpb.NewStruct(map[string]any{"length": 2, "prefix": "p" + name})
	const file = "file:///root/go/pkg/mod/github.com/pulumi/pulumi-yaml@v1.25.0/pkg/pulumiyaml/run.go"
	trace := &pulumirpc.StackTrace{}
	for _, line := range []int32{1391, 957, 1171, 1036, 499, 319, 141, 317, 120, 88} {
		trace.Frames = append(trace.Frames, &pulumirpc.StackFrame{Pc: &pulumirpc.SourcePosition{Uri: file, Line: line}})
	}
	return &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: name, Parent: parent, Custom: true, Object: obj,
		PropertyDependencies: map[string]*pulumirpc.RegisterResourceRequest_PropertyDependencies{"length": {}, "prefix": {}},
		AcceptSecrets:        true, AcceptResources: true, CustomTimeouts: &pulumirpc.RegisterResourceRequest_CustomTimeouts{},
		SourcePosition: &pulumirpc.SourcePosition{Uri: file, Line: 1391}, StackTrace: trace}
}
