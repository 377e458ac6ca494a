// Command plinth is the plinth command line: it makes real infrastructure
// match the program in a project's plinth.yaml. All of it lives in
// internal/cli; this only hands it the process's streams and arguments.
//
// The garbage collector keeps Go's default headroom for a small heap
// and less for a large one (see gcPercent and maxHeadroom), unless GOGC
// is set.
//
// For performance work, PLINTH_CPUPROFILE=FILE writes a Go CPU profile of
// the run to FILE, and PLINTH_HEAPPROFILE=FILE a heap profile of the
// garbage collection that found the most live heap (read either with
// `go tool pprof`). They are a developer's hooks, not user-facing settings, and are
// not documented in docs/cli.md.
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	"github.com/plinth-iac/plinth/internal/cli"
	"github.com/plinth-iac/plinth/internal/secrets/agent"
)

// gcPercent is the garbage collector's target when GOGC is not set and
// the heap is far below heapBudget: Go's default, the heap may grow to
// twice what is live. Plinth's heap is mostly the state and the program,
// live to the end of the command; before heapBudget bounded a large
// heap, the default's headroom was most of a large stack's peak memory
// and the target was 50 (measured on 100,000 built-in resources, 2
// cores, load ~30: `up` 728 MB peak RSS and 21.6 s CPU with GOGC=100,
// 603 MB and 23.6 s with 50). With the budget, a large stack's heap
// stays within 384 MB whatever the target below it, and 50 only made
// the collector run twice as often while the program is parsed and the
// state read (live heap 20 to 190 MB, allocating several times that):
// a 100,000-resource no-change preview took 5.27 s CPU and 438-441 MB
// peak RSS at 50, 4.73 s and 441-444 MB at 100 (six alternate runs
// each, load 5-7). A 10,000-resource stack's heap may now double too.
const gcPercent = 100

// maxHeadroom, heapBudget and minGCPercent bound the garbage a large
// heap may gather between collections: the heap may grow to heapBudget
// (live plus garbage) before a collection, at gcPercent at most, and
// once the live heap is so large that this leaves less than maxHeadroom
// of garbage, to maxHeadroom above it, down to minGCPercent. At 50% of a
// 100,000-resource stack's ~320 MB of live state and program, the
// headroom was 160 MB and the no-change preview's peak RSS 575 MB;
// capped at 64 MB, 472 MB for about 10% more CPU (2 cores, load ~7).
// The cap alone also held the heap of 150 to 300 MB that such a stack
// passes through while it is created to 64 MB of garbage, and so to
// about 25 collections of up to 0.75 s of CPU each (11.5 s of the
// create's ~20 s, by GODEBUG=gctrace=1); the budget lets those
// collections come at up to gcPercent and keeps the peak heap where the cap
// alone left it. A small stack's heap never comes near, so it keeps
// gcPercent and pays nothing. See capHeadroom.
const (
	maxHeadroom  = 64 << 20
	heapBudget   = 384 << 20
	minGCPercent = 20
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == agent.Command {
		os.Exit(agent.Main(os.Args[2])) // the key agent a command started
	}
	if tuneGC(os.Getenv) {
		go capHeadroom(debug.SetGCPercent)
	}
	stop := startCPUProfile(os.Getenv("PLINTH_CPUPROFILE"))
	stopHeap := startHeapProfile(os.Getenv("PLINTH_HEAPPROFILE"))
	code := cli.Main(context.Background(), os.Args[1:], cli.System())
	stopHeap()
	stop()
	os.Exit(code)
}

// tuneGC sets the collector's target to gcPercent unless the user chose
// one with GOGC, and reports whether it did (and so whether plinth may
// go on tuning it).
func tuneGC(getenv func(string) string) bool {
	if getenv("GOGC") != "" {
		return false
	}
	debug.SetGCPercent(gcPercent)
	return true
}

// gcPercentFor is the collector's target for a live heap of live bytes:
// gcPercent, lowered for a large heap so that live heap and garbage stay
// within heapBudget, or the garbage within maxHeadroom if that is more,
// but never below minGCPercent.
func gcPercentFor(live uint64) int {
	if live == 0 {
		return gcPercent
	}
	headroom := uint64(maxHeadroom)
	if live < heapBudget {
		headroom = max(headroom, heapBudget-live)
	}
	return int(max(minGCPercent, min(gcPercent, 100*headroom/live)))
}

// capHeadroom follows the live heap after each collection (polling
// every 50 ms) and sets the target for the next through set, which is
// debug.SetGCPercent.
func capHeadroom(set func(int) int) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}}
	var cycles uint64
	percent := gcPercent
	for range time.Tick(50 * time.Millisecond) {
		metrics.Read(sample)
		if c := sample[1].Value.Uint64(); c != cycles {
			cycles = c
			if p := gcPercentFor(sample[0].Value.Uint64()); p != percent {
				percent = p
				set(p)
			}
		}
	}
}

// startCPUProfile starts profiling into path, if set, and returns the
// function that stops it and closes the file.
func startCPUProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "plinth: PLINTH_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// startHeapProfile, if path is set, polls the garbage collector every
// 50 ms and, after a collection that found more live heap than any
// before it, rewrites path with a heap profile (whose in-use figures are
// those of the last collection). It returns the function that stops it.
func startHeapProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}}
		var peak, cycles uint64
		for {
			metrics.Read(sample)
			if c := sample[1].Value.Uint64(); c != cycles {
				cycles = c
				if live := sample[0].Value.Uint64(); live > peak {
					peak = live
					writeHeapProfile(path)
				}
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "plinth: PLINTH_HEAPPROFILE: %v\n", err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		fmt.Fprintf(os.Stderr, "plinth: PLINTH_HEAPPROFILE: %v\n", err)
	}
}
