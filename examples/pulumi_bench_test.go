package examples_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// benchResources is how many resources the front-end benchmark registers.
const benchResources = 2000

// BenchmarkFrontEnds times `plinth up` of the same 2,000 built-in
// resources (random pets) from a YAML program and, through the resource
// monitor, from a Pulumi TypeScript program (ts-node, transpile only) and a
// plain JavaScript one (typescript: false, the example's SDK transpiled
// once). Each iteration creates them in a fresh stack; setup is not timed.
//
//	go test -run '^$' -bench FrontEnds -benchtime 3x ./examples
//
// On a shared, loaded 2-core machine (Node.js 20, @pulumi/pulumi 3.262),
// plinth's own CPU was 0.27 s for YAML and 0.38-0.49 s for either Pulumi
// program (1.4-1.8x; about 0.2 s of every run is per-command work, mostly
// deriving the stack key from the passphrase). node's CPU was 7.1-8.4 s
// for TypeScript and 7.0-7.5 s for JavaScript: @pulumi/pulumi captures a
// stack trace for every resource and tracked promise and maps it through
// source maps (with the source-map-support its run entry installs), about
// a third of node's time, and garbage collection is a fifth. So wall time
// is node's: 6.6-28 s against YAML's 0.4-0.9 s (17-60x, by load), as it
// would be under Pulumi's own engine, since plinth starts node as Pulumi's
// language host does.
func BenchmarkFrontEnds(b *testing.B) {
	b.Run("yaml", func(b *testing.B) {
		benchUp(b, func(b *testing.B) string {
			dir := b.TempDir()
			writeFile(b, filepath.Join(dir, "plinth.yaml"), clitest.PetsYAML(benchResources))
			return dir
		})
	})
	b.Run("typescript", func(b *testing.B) {
		modules := npmModules(b, pulumiNodejs)
		b.Setenv("PULUMI_NODEJS_TRANSPILE_ONLY", "true")
		program := fmt.Sprintf("import * as plinth from \"./plinth\";\nfor (let i = 0; i < %d; i++) {\n    new plinth.Pet(`r${i}`, { length: 2 });\n}\n", benchResources)
		benchUp(b, func(b *testing.B) string {
			dir := clitest.CopyDir(b, pulumiNodejs)
			linkModules(b, dir, modules)
			writeFile(b, filepath.Join(dir, "index.ts"), program)
			return dir
		})
	})
	b.Run("javascript", func(b *testing.B) {
		modules := npmModules(b, pulumiNodejs)
		sdk := transpileSDK(b, modules)
		program := fmt.Sprintf("\"use strict\";\nconst plinth = require(\"./plinth\");\nfor (let i = 0; i < %d; i++) {\n    new plinth.Pet(`r${i}`, { length: 2 });\n}\n", benchResources)
		benchUp(b, func(b *testing.B) string { return jsProjectDir(b, modules, sdk, program) })
	})
}

// benchUp times up --skip-preview of a fresh project made by setup. As
// wall time on a loaded machine says little, it also reports the CPU time
// plinth used (plinth-cpu-ms/op) and the program's process used
// (program-cpu-ms/op: node's, none for YAML).
func benchUp(b *testing.B, setup func(*testing.B) string) {
	opts := clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "bench", "PLINTH_HOME": b.TempDir()}}
	var self, children time.Duration
	defer func() {
		b.ReportMetric(float64(self.Milliseconds())/float64(b.N), "plinth-cpu-ms/op")
		b.ReportMetric(float64(children.Milliseconds())/float64(b.N), "program-cpu-ms/op")
	}()
	for b.Loop() {
		b.StopTimer()
		dir := setup(b)
		var r clitest.Result
		b.StartTimer()
		s, c := clitest.MeasureCPU(func() { r = clitest.Run(b, dir, opts, "up", "--yes", "--skip-preview") })
		b.StopTimer()
		self, children = self+s, children+c
		if r.Code != 0 || !strings.Contains(r.Stdout, fmt.Sprintf("%d created", clitest.Created(dir, benchResources))) {
			b.Fatalf("up: exit %d\n%s", r.Code, clitest.Tail(r.Output()))
		}
		os.RemoveAll(dir)
		b.StartTimer()
	}
}
