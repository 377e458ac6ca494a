package display

import (
	"fmt"
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

// BenchmarkScrubLearningStepByStep learns n secrets one at a time, as an
// update whose every resource has a secret does, scrubbing a progress
// line after each: the cost per secret must not grow with n.
func BenchmarkScrubLearningStepByStep(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("secrets=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s := NewScrubber()
				for j := 0; j < n; j++ {
					s.add(fmt.Sprintf("secret-value-%06d", j))
					_ = s.Scrub("  + created password (random:index:random_password) (12ms)\n")
				}
			}
		})
	}
}
