//go:build !unix

package engine_test

import "time"

// cpuTime is not measured here; the benchmarks report 0 CPU.
func cpuTime() time.Duration { return 0 }
