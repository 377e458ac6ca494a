package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
)

// BenchmarkBackends runs `up` of N built-in resources into an empty
// stack, then a preview that finds no change, on the file backend and
// on PostgreSQL (a cluster of its own with fsync on, as the file backend
// syncs). Run it with -run '^$' -bench Backends -benchtime 1x.
func BenchmarkBackends(b *testing.B) {
	cluster, err := pgtest.Start(pgtest.Options{Durable: true})
	if err != nil {
		b.Skip(err)
	}
	defer cluster.Stop()
	for _, n := range []int{2000, 10000} {
		for _, backend := range []string{"file", "postgresql"} {
			env := func() map[string]string {
				if backend == "file" {
					return nil
				}
				url, err := cluster.NewDatabase()
				if err != nil {
					b.Fatal(err)
				}
				return map[string]string{"PLINTH_BACKEND": url}
			}
			b.Run(fmt.Sprintf("up/%d/%s", n, backend), func(b *testing.B) { benchUp(b, n, env) })
			b.Run(fmt.Sprintf("preview/%d/%s", n, backend), func(b *testing.B) { benchPreview(b, n, env) })
		}
	}
}

// manyPets writes a program of n built-in resources.
func manyPets(b *testing.B, n int) string {
	dir := b.TempDir()
	var sb strings.Builder
	sb.WriteString("name: many\nresources:\n")
	for i := range n {
		fmt.Fprintf(&sb, "  pet%d:\n    type: plinth:random:Pet\n    properties: { length: 2 }\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "plinth.yaml"), []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	return dir
}

func benchUp(b *testing.B, n int, env func() map[string]string) {
	for b.Loop() {
		b.StopTimer()
		dir, opts := manyPets(b, n), clitest.Options{Env: env()}
		b.StartTimer()
		clitest.MustRun(b, dir, opts, "up", "--yes", "--skip-preview")
	}
}

func benchPreview(b *testing.B, n int, env func() map[string]string) {
	dir, opts := manyPets(b, n), clitest.Options{Env: env()}
	clitest.MustRun(b, dir, opts, "up", "--yes", "--skip-preview")
	for b.Loop() {
		clitest.MustRun(b, dir, opts, "preview")
	}
}
