package main

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC: plinth sets the collector's target to gcPercent, unless
// GOGC is set, which Go itself has then applied and plinth leaves alone.
func TestTuneGC(t *testing.T) {
	tests := map[string]struct {
		gogc   string
		want   int
		follow bool
	}{
		"unset": {"", gcPercent, true},
		"set":   {"200", 200, false},
		"off":   {"off", 200, false}, // whatever Go applied stays: here the 200 set below
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			debug.SetGCPercent(200) // stands for what Go took from GOGC
			follow := tuneGC(func(k string) string {
				if k == "GOGC" {
					return tc.gogc
				}
				return ""
			})
			if follow != tc.follow {
				t.Errorf("GOGC=%q: tuneGC reported %v, want %v (plinth follows the live heap only with its own target)", tc.gogc, follow, tc.follow)
			}
			if got := debug.SetGCPercent(200); got != tc.want {
				t.Errorf("GOGC=%q: the collector's target is %d%%, want %d%%", tc.gogc, got, tc.want)
			}
		})
	}
}

// TestGCPercentFor: a small heap keeps gcPercent; a large one grows to
// heapBudget, or by maxHeadroom once that is more, down to
// minGCPercent.
func TestGCPercentFor(t *testing.T) {
	const mb = 1 << 20
	tests := map[string]struct {
		live uint64
		want int
	}{
		"no collection yet": {0, gcPercent},
		"small stack":       {20 * mb, gcPercent},
		// A large stack's program and state, while they load, may double
		// before a collection: the budget, not the target, bounds the heap.
		"loading a large stack": {150 * mb, 100},
		"at the knee":           {100 * heapBudget / (100 + gcPercent), gcPercent},
		"within the budget":     {288 * mb, 100 * (heapBudget - 288*mb) / (288 * mb)},
		"past the budget":       {330 * mb, max(minGCPercent, 100*maxHeadroom/(330*mb))},
		"huge":                  {4096 * mb, minGCPercent},
	}
	for name, tc := range tests {
		if got := gcPercentFor(tc.live); got != tc.want {
			t.Errorf("%s: gcPercentFor(%d MB) = %d, want %d", name, tc.live/mb, got, tc.want)
		}
	}
	for live := uint64(1 * mb); live < 1024*mb; live += mb {
		goal := live + live*uint64(gcPercentFor(live))/100
		if goal > max(heapBudget, live+maxHeadroom, live+live*minGCPercent/100)+live/100 {
			t.Fatalf("gcPercentFor(%d MB) lets the heap grow to %d MB, past the budget", live/mb, goal/mb)
		}
	}
}
