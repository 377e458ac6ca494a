package engine_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
)

// slowSyncBackend is the file backend with a journal append that takes
// sync longer, as on a disk whose fsync is slow, and that counts appends.
type slowSyncBackend struct {
	*file.Backend
	sync    time.Duration
	appends atomic.Int64
}

func (b *slowSyncBackend) AppendJournal(ctx context.Context, stack string, records [][]byte) error {
	b.appends.Add(1)
	time.Sleep(b.sync)
	return b.Backend.AppendJournal(ctx, stack, records)
}

// BenchmarkUpdateCreatesSlowSync creates n resources through a provider
// whose calls take call each, journaling to a file backend whose every
// append takes sync more: while the machine's CPU is not the limit, how
// fast creates go is a matter of how many steps are in flight while a
// batch syncs. It reports the time and the journal appends per resource.
//
//	go test -run '^$' -bench UpdateCreatesSlowSync -benchtime 3x ./internal/engine
func BenchmarkUpdateCreatesSlowSync(b *testing.B) {
	const n, call = 2000, time.Millisecond
	for _, sync := range []time.Duration{time.Millisecond, 4 * time.Millisecond} {
		b.Run(fmt.Sprintf("sync=%s", sync), func(b *testing.B) {
			ctx := context.Background()
			src := &source{fakes: map[string]*provider.Fake{"pkg": {
				CreateF: func(context.Context, provider.CreateRequest) (provider.CreateResponse, error) {
					time.Sleep(call)
					return provider.CreateResponse{ID: "id"}, nil
				},
			}}, instances: map[string]int{}}
			var appends int64
			for b.Loop() {
				backend := &slowSyncBackend{Backend: file.New(b.TempDir()), sync: sync}
				s, err := state.Open(ctx, backend, "dev", state.OpenOptions{})
				if err != nil {
					b.Fatal(err)
				}
				opts := engine.Options{Stack: "dev", Project: "bench", Providers: src, Journal: s, Parallel: 32}
				res, err := engine.Update(ctx, flatProgram(n), s.Base(), opts)
				if err != nil || res.Counts[engine.OpCreate] != n {
					b.Fatalf("update: %v, counts %v", err, res.Counts)
				}
				appends += backend.appends.Load()
				b.StopTimer()
				if err := s.Close(ctx); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/resource")
			b.ReportMetric(float64(appends)/float64(b.N)/n, "appends/resource")
		})
	}
}
