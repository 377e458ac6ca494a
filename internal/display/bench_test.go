package display

import (
	"io"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
)

// benchmarkView shows b.N resources created, start and done, the way an
// update of a large stack feeds a view: the cost per resource must not
// grow with the number of resources.
func benchmarkView(b *testing.B, mode Mode) {
	v := New(Options{Out: io.Discard, Mode: mode, Tick: time.Hour})
	v.Begin(Operation{Verb: "update", Stack: "dev", Expected: b.N})
	start := stepEvent(engine.EventStepStart, engine.OpCreate, "plinth:fs:File", "r")
	done := start
	done.Kind, done.Duration = engine.EventStepDone, time.Millisecond
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Event(start)
		v.Event(done)
	}
	v.End(Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpCreate: b.N}}})
}

func BenchmarkPlainView(b *testing.B) { benchmarkView(b, Plain) }
func BenchmarkLiveView(b *testing.B)  { benchmarkView(b, Live) }
func BenchmarkJSONView(b *testing.B)  { benchmarkView(b, JSON) }
