//go:build linux

package main

import (
	"os/exec"
	"testing"
	"time"
)

// spin is a shell loop that burns about 0.1 s of CPU.
const spin = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"

// TestMeasureSplitsCPU runs shell commands whose CPU is known to be the
// shell's own, a waited-for child's, or an orphan's, and checks that
// measure puts it in the right column.
func TestMeasureSplitsCPU(t *testing.T) {
	if err := becomeSubreaper(); err != nil {
		t.Fatal(err)
	}
	const some = 50 * time.Millisecond // half of a spin: CPU is CPU under load too
	tests := map[string]struct {
		script      string
		self, kids  bool // whether each must have some CPU
		wantOrphans int
		sampled     bool // the child lives long enough to be sampled
	}{
		"own":    {script: spin, self: true},
		"child":  {script: "(" + spin + "); exit 0", kids: true, sampled: true},
		"both":   {script: spin + "; (" + spin + ")", self: true, kids: true, sampled: true},
		"orphan": {script: "(" + spin + ") & exit 0", kids: true, wantOrphans: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			u, err := measure(exec.Command("sh", "-c", tc.script))
			if err != nil {
				t.Fatal(err)
			}
			if got := u.self >= some; got != tc.self {
				t.Errorf("own CPU %s, want it %s", u.self, atLeast(tc.self, some))
			}
			if got := u.children >= some; got != tc.kids {
				t.Errorf("children's CPU %s, want it %s", u.children, atLeast(tc.kids, some))
			}
			if u.orphans != tc.wantOrphans {
				t.Errorf("%d orphans, want %d", u.orphans, tc.wantOrphans)
			}
			if got := u.byProgram["sh"]; tc.sampled && (got <= 0 || got > u.children) {
				t.Errorf("the child sh sampled at %s of the children's %s: want some, and no more", got, u.children)
			}
			if u.wall <= 0 || u.maxRSS <= 0 {
				t.Errorf("wall %s, peak RSS %d: want both positive", u.wall, u.maxRSS)
			}
		})
	}
}

func atLeast(yes bool, d time.Duration) string {
	if yes {
		return "at least " + d.String()
	}
	return "under " + d.String()
}
