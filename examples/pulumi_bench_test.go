package examples_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// benchResources is how many resources the front-end benchmark registers.
const benchResources = 2000

// BenchmarkFrontEnds times `plinth up` of the same 2,000 built-in
// resources (random pets) from a Pulumi TypeScript program, through the
// resource monitor, and from a YAML program. Each iteration creates them
// in a fresh stack; setup is not timed.
//
//	go test -run '^$' -bench FrontEnds -benchtime 3x ./examples
func BenchmarkFrontEnds(b *testing.B) {
	b.Run("yaml", func(b *testing.B) {
		var y strings.Builder
		y.WriteString("name: bench\nresources:\n")
		for i := range benchResources {
			fmt.Fprintf(&y, "  r%d:\n    type: plinth:random:Pet\n    properties: { length: 2 }\n", i)
		}
		benchUp(b, func(b *testing.B) string {
			dir := b.TempDir()
			writeFile(b, filepath.Join(dir, "plinth.yaml"), y.String())
			return dir
		})
	})
	b.Run("nodejs", func(b *testing.B) {
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
}

// benchUp times up --skip-preview of a fresh project made by setup.
func benchUp(b *testing.B, setup func(*testing.B) string) {
	opts := clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "bench", "PLINTH_HOME": b.TempDir()}}
	for b.Loop() {
		b.StopTimer()
		dir := setup(b)
		b.StartTimer()
		r := clitest.Run(b, dir, opts, "up", "--yes", "--skip-preview")
		b.StopTimer()
		if r.Code != 0 || !strings.Contains(r.Stdout, fmt.Sprintf("%d created", benchResources)) {
			b.Fatalf("up: exit %d\n%s", r.Code, tail(r.Output()))
		}
		os.RemoveAll(dir)
		b.StartTimer()
	}
}

func tail(s string) string {
	if len(s) > 2000 {
		return s[len(s)-2000:]
	}
	return s
}
