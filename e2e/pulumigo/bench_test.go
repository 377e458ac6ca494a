package pulumigo_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// benchResources is how many resources the benchmark registers.
const benchResources = 2000

// BenchmarkGoFrontEnd times `plinth up --skip-preview` of the same 2,000
// built-in resources (random pets) from a YAML program and from a Go
// Pulumi program (testdata/bench) through the resource monitor. Each
// iteration creates them in a new stack. The Go program is built once
// before the timing starts, as a user's second run finds it built; each
// up still asks the go command, which finds the binary up to date.
//
//	go test -run '^$' -bench GoFrontEnd -benchtime 3x ./e2e/pulumigo
//
// plinth-cpu-ms/op is the CPU time plinth used, program-cpu-ms/op that
// of its children: the go command's check and the Go program, none for
// YAML. Issue 21 asks plinth's own CPU for a Pulumi program to be within
// twice YAML's.
//
// On a shared, loaded 2-core machine (Go 1.26, sdk/v3 3.262; load 17
// to 26), over three runs of 3 iterations, plinth's own CPU was 362-433
// ms for YAML and 468-606 ms for Go (1.2-1.4x); the children's 736-981
// ms, about 450 ms of it the go command finding the build up to date.
// Wall time 1.5-2.2 s against 2.5-4.2 s.
func BenchmarkGoFrontEnd(b *testing.B) {
	b.Run("yaml", func(b *testing.B) {
		dir := b.TempDir()
		writeFile(b, filepath.Join(dir, "plinth.yaml"), clitest.PetsYAML(benchResources))
		benchUp(b, dir, clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "bench", "PLINTH_HOME": b.TempDir()}})
	})
	b.Run("go", func(b *testing.B) {
		p := newGoProject(b, "bench")
		p.Run("config", "set", "count", fmt.Sprint(benchResources))
		p.Run("preview") // builds the program
		benchUp(b, p.Dir, p.Opts)
	})
}

// benchUp times up --skip-preview in dir, each iteration on a new stack
// whose config is copied from dev's.
func benchUp(b *testing.B, dir string, opts clitest.Options) {
	var self, children time.Duration
	defer func() {
		b.ReportMetric(float64(self.Milliseconds())/float64(b.N), "plinth-cpu-ms/op")
		b.ReportMetric(float64(children.Milliseconds())/float64(b.N), "program-cpu-ms/op")
	}()
	cfg, _ := os.ReadFile(filepath.Join(dir, "Pulumi.dev.yaml"))
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		stack := fmt.Sprintf("b%d", i)
		if cfg != nil {
			writeFile(b, filepath.Join(dir, "Pulumi."+stack+".yaml"), string(cfg))
		}
		var r clitest.Result
		b.StartTimer()
		s, c := clitest.MeasureCPU(func() { r = clitest.Run(b, dir, opts, "up", "--yes", "--skip-preview", "--stack", stack) })
		b.StopTimer()
		self, children = self+s, children+c
		if r.Code != 0 || !strings.Contains(r.Stdout, fmt.Sprintf("%d created", clitest.Created(dir, benchResources))) {
			b.Fatalf("up: exit %d\n%s", r.Code, clitest.Tail(r.Output()))
		}
		b.StartTimer()
	}
}
