package postgres_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
	"github.com/plinth-iac/plinth/internal/state/postgres"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
)

// benchOpen opens a backend over a fresh database for a benchmark.
func benchOpen(b *testing.B) *postgres.Backend {
	b.Helper()
	pb, err := postgres.Open(context.Background(), postgres.Config{URL: pgtest.Database(b), Project: "test"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pb.Close)
	return pb
}

// historyRows counts the stack's history rows.
func historyRows(b *testing.B, pb *postgres.Backend) int {
	b.Helper()
	recs, err := pb.ReadHistory(context.Background(), "dev")
	if err != nil {
		b.Fatal(err)
	}
	return len(recs)
}

// BenchmarkRecord measures Record over PostgreSQL: with one writer each
// record is an append of its own, so ns/op is the cost of one append and
// of the mark recorded with it; history-rows/op is what the marks add to
// the history table.
func BenchmarkRecord(b *testing.B) {
	for _, p := range []int{1, 64} {
		b.Run(fmt.Sprint("parallelism=", p), func(b *testing.B) {
			ctx := context.Background()
			pb := benchOpen(b)
			s, err := state.Open(ctx, pb, "dev", state.OpenOptions{History: state.NewOperation("update", "bench")})
			if err != nil {
				b.Fatal(err)
			}
			var next atomic.Int64
			b.SetParallelism(p)
			b.ResetTimer()
			b.RunParallel(func(p *testing.PB) {
				for p.Next() {
					name := fmt.Sprint("r", next.Add(1))
					if err := s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: thingRes(name, "id-"+name)}); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.StopTimer()
			s.Finish(state.ResultSucceeded, nil)
			if err := s.Close(ctx); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(historyRows(b, pb))/float64(b.N), "history-rows/op")
		})
	}
}

// BenchmarkLoad measures loading a stack whose last operation recorded
// 2,000 entries one by one: its history holds what the marks of those
// appends added.
func BenchmarkLoad(b *testing.B) {
	ctx := context.Background()
	pb := benchOpen(b)
	s, err := state.Open(ctx, pb, "dev", state.OpenOptions{History: state.NewOperation("update", "bench")})
	if err != nil {
		b.Fatal(err)
	}
	for i := range 2000 {
		name := fmt.Sprint("r", i)
		if err := s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: thingRes(name, "id-"+name)}); err != nil {
			b.Fatal(err)
		}
	}
	s.Finish(state.ResultSucceeded, nil)
	if err := s.Close(ctx); err != nil {
		b.Fatal(err)
	}
	rows := historyRows(b, pb)
	for b.Loop() {
		if _, err := state.Load(ctx, pb, "dev", state.OpenOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows), "history-rows")
}

// BenchmarkLoadLongHistory measures loading a stack of one resource
// after ten operations of 1,000 journal writes each (updates of that
// resource): the state is small, and what loading costs beyond it is
// finding the last mark.
func BenchmarkLoadLongHistory(b *testing.B) {
	ctx := context.Background()
	pb := benchOpen(b)
	r := thingRes("a", "a-1")
	for op := range 10 {
		s, err := state.Open(ctx, pb, "dev", state.OpenOptions{History: state.NewOperation("update", "bench")})
		if err != nil {
			b.Fatal(err)
		}
		for i := range 1000 {
			e := &state.Entry{Kind: state.Write, Op: state.OpUpdate, Old: r, New: r}
			if op == 0 && i == 0 {
				e = &state.Entry{Kind: state.Write, Op: state.OpCreate, New: r}
			}
			if err := s.Record(ctx, e); err != nil {
				b.Fatal(err)
			}
		}
		s.Finish(state.ResultSucceeded, nil)
		if err := s.Close(ctx); err != nil {
			b.Fatal(err)
		}
	}
	rows := historyRows(b, pb)
	for b.Loop() {
		if _, err := state.Load(ctx, pb, "dev", state.OpenOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows), "history-rows")
}

// BenchmarkSteps runs create steps as the engine records them (Begin,
// then End once the "provider" returned) with 32 in flight, on the file
// backend and on a PostgreSQL cluster with fsync on, and closes the
// session (compaction) at the end: ns/op is one step's share of the
// whole, so the two backends' figures compare directly. appends/op is
// how many journal appends a step cost (group commit makes it below 2).
func BenchmarkSteps(b *testing.B) {
	cluster, err := pgtest.Start(pgtest.Options{Durable: true})
	if err != nil {
		b.Skip(err)
	}
	b.Cleanup(func() { _ = cluster.Stop() })
	for _, name := range []string{"file", "postgres"} {
		b.Run("backend="+name, func(b *testing.B) {
			var backend state.Backend = file.New(b.TempDir())
			if name == "postgres" {
				url, err := cluster.NewDatabase()
				if err != nil {
					b.Fatal(err)
				}
				pb, err := postgres.Open(context.Background(), postgres.Config{URL: url, Project: "test"})
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(pb.Close)
				backend = pb
			}
			counted := &countAppends{Backend: backend}
			runSteps(b, counted)
			b.ReportMetric(float64(counted.n.Load())/float64(b.N), "appends/op")
		})
	}
}

// countAppends counts a backend's journal appends.
type countAppends struct {
	state.Backend
	n atomic.Int64
}

func (c *countAppends) AppendJournal(ctx context.Context, stack string, records [][]byte) error {
	c.n.Add(1)
	return c.Backend.AppendJournal(ctx, stack, records)
}

// runSteps records b.N create steps, 32 at once, and closes the session.
func runSteps(b *testing.B, backend state.Backend) {
	ctx := context.Background()
	s, err := state.Open(ctx, backend, "dev", state.OpenOptions{History: state.NewOperation("update", "bench")})
	if err != nil {
		b.Fatal(err)
	}
	var next atomic.Uint64
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(p *testing.PB) {
		for p.Next() {
			step := next.Add(1)
			name := fmt.Sprint("r", step)
			r := thingRes(name, "")
			if err := s.Record(ctx, &state.Entry{Kind: state.Begin, Step: step, Op: state.OpCreate, New: r}); err != nil {
				b.Error(err)
				return
			}
			done := *r
			done.ID = "id-" + name
			if err := s.Record(ctx, &state.Entry{Kind: state.End, Step: step, Op: state.OpCreate, New: &done}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	s.Finish(state.ResultSucceeded, nil)
	if err := s.Close(ctx); err != nil {
		b.Fatal(err)
	}
}
