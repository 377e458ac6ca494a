package postgres_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/plinth-iac/plinth/internal/state"
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
