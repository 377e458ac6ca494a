package engine_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// flatProgram registers n independent resources without a goroutine per
// resource and with at most maxPending of them waiting for their
// callbacks, as the YAML evaluator does.
type flatProgram int

// maxPending is the YAML evaluator's bound on pending registrations.
const maxPending = 4096

func (n flatProgram) Run(_ context.Context, mon engine.Monitor) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	slots := make(chan struct{}, maxPending)
	wg.Add(int(n))
	for i := range int(n) {
		reg := engine.Registration{
			Type: "pkg:index:Thing", Name: fmt.Sprintf("r%d", i), Custom: true,
			Inputs: resource.Object{"index": resource.NewNumber(float64(i)), "name": resource.NewString("thing")},
		}
		slots <- struct{}{}
		mon.Register(reg, func(_ engine.Registered, err error) {
			<-slots
			if err != nil {
				mu.Lock()
				first = err
				mu.Unlock()
			}
			wg.Done()
		})
	}
	wg.Wait()
	return first
}

// scaleSizes are the stack sizes the scale benchmarks run: the cost per
// resource (ns/resource, heap-B/resource, alloc-B/resource) should stay
// flat from one to the next. The largest needs a few GB of memory and
// disk; -short leaves it out.
func scaleSizes() []int {
	if testing.Short() {
		return []int{10000, 100000}
	}
	return []int{10000, 100000, 1000000}
}

func noopSource() *source {
	return &source{fakes: map[string]*provider.Fake{"pkg": {}}, instances: map[string]int{}}
}

// BenchmarkUpdateCreates creates n resources with a no-op in-process
// provider, journaling every step to the file backend and compacting at the
// end: the whole cost of a first `plinth up` but for the program's parse.
// It reports, per resource, the time, the heap the update leaves live
// (the state it holds) and the bytes it allocated.
//
//	go test -run '^$' -bench UpdateCreates -benchtime 1x ./internal/engine
func BenchmarkUpdateCreates(b *testing.B) {
	for _, n := range scaleSizes() {
		b.Run(fmt.Sprintf("resources=%d", n), func(b *testing.B) {
			ctx := context.Background()
			var heapPerResource, allocPerResource float64
			var cpu time.Duration
			for b.Loop() {
				backend := file.New(b.TempDir())
				s, err := state.Open(ctx, backend, "dev", state.OpenOptions{})
				if err != nil {
					b.Fatal(err)
				}
				before, allocBefore := memNow()
				cpuBefore := cpuTime()
				opts := engine.Options{Stack: "dev", Project: "bench", Providers: noopSource(), Journal: s}
				res, err := engine.Update(ctx, flatProgram(n), s.Base(), opts)
				if err != nil || res.Counts[engine.OpCreate] != n {
					b.Fatalf("update: %v, counts %v", err, res.Counts)
				}
				b.StopTimer()
				cpu += cpuTime() - cpuBefore
				after, allocAfter := memNow()
				heapPerResource = float64(after-before) / float64(n)
				allocPerResource = float64(allocAfter-allocBefore) / float64(n)
				b.StartTimer()
				if err := s.Close(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(heapPerResource, "heap-B/resource")
			b.ReportMetric(allocPerResource, "alloc-B/resource")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/resource")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/resource")
		})
	}
}

// BenchmarkPreviewNoChanges previews n unchanged resources: load the
// state, run the program, Check and Diff each resource.
func BenchmarkPreviewNoChanges(b *testing.B) {
	for _, n := range scaleSizes() {
		b.Run(fmt.Sprintf("resources=%d", n), func(b *testing.B) {
			ctx := context.Background()
			backend := file.New(b.TempDir())
			s, err := state.Open(ctx, backend, "dev", state.OpenOptions{})
			if err != nil {
				b.Fatal(err)
			}
			opts := engine.Options{Stack: "dev", Project: "bench", Providers: noopSource(), Journal: s}
			if _, err := engine.Update(ctx, flatProgram(n), s.Base(), opts); err != nil {
				b.Fatal(err)
			}
			if err := s.Close(ctx); err != nil {
				b.Fatal(err)
			}
			start := cpuTime()
			for b.Loop() {
				snap, err := state.Load(ctx, backend, "dev", state.OpenOptions{})
				if err != nil {
					b.Fatal(err)
				}
				res, err := engine.Preview(ctx, flatProgram(n), snap, opts)
				if err != nil || res.HasChanges() {
					b.Fatalf("preview: %v, counts %v", err, res.Counts)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/resource")
			b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/resource")
		})
	}
}

// memNow collects garbage and returns the live heap and the bytes
// allocated so far.
func memNow() (live, allocated uint64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc, m.TotalAlloc
}

// pairsProgram registers n resources a<i> and n resources b<i> that
// depend on them; every a<i> is replaced delete-first when key changes.
type pairsProgram struct {
	n   int
	key int
}

func (p pairsProgram) Run(ctx context.Context, mon engine.Monitor) error {
	var wg sync.WaitGroup
	errs := make(chan error, 2*p.n)
	for i := range p.n {
		wg.Add(1)
		a := engine.Registration{Type: "pkg:index:Thing", Name: fmt.Sprintf("a%d", i), Custom: true, DeleteBeforeReplace: true,
			Inputs: resource.Object{"k": resource.NewNumber(float64(p.key))}}
		mon.Register(a, func(r engine.Registered, err error) {
			if err != nil {
				errs <- err
				wg.Done()
				return
			}
			b := engine.Registration{Type: "pkg:index:Thing", Name: fmt.Sprintf("b%d", i), Custom: true, Dependencies: []resource.URN{r.URN}}
			mon.Register(b, func(_ engine.Registered, err error) {
				if err != nil {
					errs <- err
				}
				wg.Done()
			})
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// BenchmarkDeleteBeforeReplace replaces n resources delete-first, each
// taking its one dependent with it: finding dependents must not cost a
// scan of the whole stack per replacement.
func BenchmarkDeleteBeforeReplace(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("pairs=%d", n), func(b *testing.B) {
			ctx := context.Background()
			src := &source{fakes: map[string]*provider.Fake{"pkg": {}}, instances: map[string]int{}}
			replaceOnKey(src.fakes["pkg"], "k", true)
			for b.Loop() {
				b.StopTimer()
				j := state.NewMemoryJournal(nil)
				opts := engine.Options{Stack: "dev", Project: "bench", Providers: src, Journal: j}
				if _, err := engine.Update(ctx, pairsProgram{n: n, key: 1}, nil, opts); err != nil {
					b.Fatal(err)
				}
				base := j.Snapshot()
				j = state.NewMemoryJournal(base)
				opts.Journal = j
				b.StartTimer()
				res, err := engine.Update(ctx, pairsProgram{n: n, key: 2}, base, opts)
				if err != nil || res.Counts[engine.OpReplace] != 2*n {
					b.Fatalf("update: %v, counts %v", err, res.Counts)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/replacement")
		})
	}
}
