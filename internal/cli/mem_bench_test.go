package cli_test

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// BenchmarkUpMemory runs `up` of N built-in resources (N from
// PLINTH_BENCH_N, 10,000 by default) on the file backend and reports
// the peak heap in use per resource, sampled while the update runs.
// With PLINTH_BENCH_HEAPPROFILE=FILE it writes a heap profile to FILE
// each time the sampled heap reaches a new peak, so the file ends up
// holding the profile nearest the peak. Run it with
// -run '^$' -bench UpMemory -benchtime 1x.
func BenchmarkUpMemory(b *testing.B) {
	n := 10000
	if s := os.Getenv("PLINTH_BENCH_N"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil {
			b.Fatalf("PLINTH_BENCH_N=%q: %v; set it to a number of resources", s, err)
		}
		n = v
	}
	for b.Loop() {
		b.StopTimer()
		dir := manyPets(b, n)
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		s := startPeakSampler(os.Getenv("PLINTH_BENCH_HEAPPROFILE"))
		b.StartTimer()
		clitest.MustRun(b, dir, clitest.Options{}, "up", "--yes", "--skip-preview")
		b.StopTimer()
		peak := s.stop()
		b.ReportMetric(float64(peak-base.HeapInuse)/float64(n), "peak-heap-B/resource")
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		b.StartTimer()
	}
}

// peakSampler polls the heap in use until stopped and keeps its peak.
type peakSampler struct {
	done chan struct{}
	wg   sync.WaitGroup
	peak uint64
}

func startPeakSampler(profile string) *peakSampler {
	s := &peakSampler{done: make(chan struct{})}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		var written uint64
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			s.peak = max(s.peak, m.HeapInuse)
			if profile != "" && m.HeapInuse > written+written/10 {
				written = m.HeapInuse
				writeHeapProfile(profile)
			}
			select {
			case <-s.done:
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

func (s *peakSampler) stop() uint64 {
	close(s.done)
	s.wg.Wait()
	return s.peak
}

func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	_ = pprof.Lookup("heap").WriteTo(f, 0)
}
