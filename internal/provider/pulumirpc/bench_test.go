package pulumirpc

import (
	"context"
	"fmt"
	"net"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
	"github.com/plinth-iac/plinth/providers/plinth"
	"github.com/plinth-iac/plinth/sdk/provider/pulumiserve"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// servePlinth serves the built-in provider as a Pulumi-protocol plugin in
// this process, on a loopback port, as pulumi-resource-plinth does, and
// returns a configured client of it.
func servePlinth(tb testing.TB) *Provider {
	tb.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- pulumiserve.Serve(ctx, plinth.New(), pulumiserve.Options{Listener: lis, PortOut: discard{}})
	}()
	// Connected as Launch connects to a plugin it started.
	conn, err := grpcplugin.Dial("plinth", "pulumi-resource-plinth", lis.Addr().(*net.TCPAddr).Port)
	if err != nil {
		tb.Fatal(err)
	}
	p := newProvider(Config{Name: "plinth"}, conn, nil, &engine{})
	tb.Cleanup(func() { p.Close(); cancel(); <-done })
	if err := p.handshake(ctx); err != nil {
		tb.Fatal(err)
	}
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: resource.Object{}}); err != nil {
		tb.Fatal(err)
	}
	return p
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }

// petURN is the URN of the i-th pet of the bench's program.
func petURN(i int) resource.URN {
	return resource.URN(fmt.Sprintf("urn:pulumi:dev::bench::plinth:random:Pet::pet%d", i))
}

func petInputs(i int) resource.Object {
	return resource.Object{"length": resource.NewNumber(2), "prefix": resource.NewString(fmt.Sprintf("p%d", i))}
}

// BenchmarkPetCreate is what a create costs per resource on the plugin
// path: Check, then Create, on both sides of the connection, with as many
// calls in flight as the engine makes (engine.DefaultParallel).
func BenchmarkPetCreate(b *testing.B) {
	p := servePlinth(b)
	ctx := context.Background()
	var next atomic.Int64
	b.ReportAllocs()
	b.SetParallelism(16)
	defer reportCPU(b)()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := int(next.Add(1))
			urn := petURN(i)
			checked, err := p.Check(ctx, provider.CheckRequest{URN: urn, News: petInputs(i), RandomSeed: []byte("seed")})
			if err != nil {
				b.Error(err)
				return
			}
			if _, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: checked.Inputs}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkPetPreview is what a no-change preview costs per resource on
// the plugin path: Check with the old inputs, then Diff.
func BenchmarkPetPreview(b *testing.B) {
	p := servePlinth(b)
	ctx := context.Background()
	urn := petURN(7)
	checked, err := p.Check(ctx, provider.CheckRequest{URN: urn, News: petInputs(7)})
	if err != nil {
		b.Fatal(err)
	}
	created, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: checked.Inputs})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetParallelism(16)
	defer reportCPU(b)()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			again, err := p.Check(ctx, provider.CheckRequest{URN: urn, Olds: checked.Inputs, News: petInputs(7)})
			if err != nil {
				b.Error(err)
				return
			}
			d, err := p.Diff(ctx, provider.DiffRequest{URN: urn, ID: created.ID, OldInputs: checked.Inputs, OldOutputs: created.Outputs, News: again.Inputs})
			if err != nil || d.Changes != provider.DiffNone {
				b.Error(d, err)
				return
			}
		}
	})
}

// reportCPU reports the process's CPU time (user+sys, both sides of the
// connection) per operation from now until the returned func is called.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op") }
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
