package pulumi_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// BenchmarkCLI2000 runs a program of 2,000 resources (1,000 seeded
// integers, and 1,000 files each holding one of them) through the command
// line code: `up --yes` on a new stack (its preview included), then a
// `preview` that must find nothing to change. The plugin case is the one
// the targets are about (up under 5s, preview under 1s); the in-process
// case shows what the process boundary costs. Reported per operation as
// up-s and preview-s. Run with -benchtime=1x: one iteration is already
// thousands of provider calls.
func BenchmarkCLI2000(b *testing.B) {
	for _, m := range []mode{outOfProcess(), inProcess()} {
		b.Run(m.name, func(b *testing.B) {
			var upTime, previewTime time.Duration
			for b.Loop() {
				b.StopTimer()
				p := largeProject(b, m, 1000)
				b.StartTimer()
				start := time.Now()
				p.run("up", "--yes")
				upTime += time.Since(start)
				start = time.Now()
				r := p.try("preview", "--detailed-exitcode")
				previewTime += time.Since(start)
				b.StopTimer()
				if r.Code != 0 {
					b.Fatalf("preview after up: exit %d, want 0 (no changes)\n%s", r.Code, r.Stderr)
				}
				if got := strings.TrimSpace(p.run("stack", "output", "servedBy").Stdout); got != m.server {
					b.Fatalf("served by %s, want %s", got, m.server)
				}
				b.StartTimer()
			}
			b.ReportMetric(upTime.Seconds()/float64(b.N), "up-s")
			b.ReportMetric(previewTime.Seconds()/float64(b.N), "preview-s")
		})
	}
}

// largeProject writes a program of 2n resources and the command that
// reports its server into a new project directory.
func largeProject(b *testing.B, m mode, n int) *project {
	b.Helper()
	dir := b.TempDir()
	var y strings.Builder
	y.WriteString("name: large\nresources:\n")
	y.WriteString("  servedBy:\n    type: plinth:exec:Command\n    properties: { create: 'readlink /proc/$PPID/exe' }\n")
	for i := range n {
		fmt.Fprintf(&y, "  n%d:\n    type: plinth:random:Integer\n    properties: { min: 1, max: 1000000, seed: \"s%d\" }\n", i, i)
		fmt.Fprintf(&y, "  f%d:\n    type: plinth:fs:File\n    properties: { path: out/f%d.txt, content: \"value ${n%d.result}\" }\n", i, i, i)
	}
	y.WriteString("outputs:\n  servedBy: ${servedBy.stdout}\n")
	if err := os.WriteFile(filepath.Join(dir, "plinth.yaml"), []byte(y.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return &project{t: b, dir: dir, mode: m, opts: clitest.Options{Env: m.env(b.TempDir())}}
}
