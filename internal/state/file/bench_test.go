package file_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
)

// countingBackend counts journal appends, each one write and one fsync.
type countingBackend struct {
	*file.Backend
	appends atomic.Int64
}

func (c *countingBackend) AppendJournal(ctx context.Context, stack string, records [][]byte) error {
	c.appends.Add(1)
	return c.Backend.AppendJournal(ctx, stack, records)
}

// BenchmarkRecord measures Record on the file backend with many writers,
// as the engine's parallel steps call it. Run it with -benchtime=100000x
// for 100,000 entries.
func BenchmarkRecord(b *testing.B) {
	for _, p := range []int{1, 64} {
		b.Run(fmt.Sprint("parallelism=", p), func(b *testing.B) {
			ctx := context.Background()
			cb := &countingBackend{Backend: file.New(b.TempDir())}
			s, err := state.Open(ctx, cb, "dev", state.OpenOptions{})
			must(b, err)
			record(b, s, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: prov()})
			var next atomic.Int64
			b.SetParallelism(p) // p × GOMAXPROCS goroutines
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					name := fmt.Sprint("r", next.Add(1))
					if err := s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: thing(name, "id-"+name)}); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.StopTimer()
			b.ReportMetric(float64(cb.appends.Load())/float64(b.N), "syncs/op")
			must(b, s.Close(ctx))
		})
	}
}
