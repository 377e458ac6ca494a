package main

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC: plinth sets the collector's target to gcPercent, unless
// GOGC is set, which Go itself has then applied and plinth leaves alone.
func TestTuneGC(t *testing.T) {
	tests := map[string]struct {
		gogc string
		want int
	}{
		"unset": {"", gcPercent},
		"set":   {"200", 200},
		"off":   {"off", 200}, // whatever Go applied stays: here the 200 set below
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			debug.SetGCPercent(200) // stands for what Go took from GOGC
			tuneGC(func(k string) string {
				if k == "GOGC" {
					return tc.gogc
				}
				return ""
			})
			if got := debug.SetGCPercent(200); got != tc.want {
				t.Errorf("GOGC=%q: the collector's target is %d%%, want %d%%", tc.gogc, got, tc.want)
			}
		})
	}
}
