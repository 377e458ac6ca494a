//go:build unix

package pulumicorpus_test

import (
	"os"
	"testing"

	"github.com/plinth-iac/plinth/e2e/pulumicorpus/internal/corpus"
)

func TestMain(m *testing.M) { os.Exit(corpus.Main(m, ".")) }

// TestCorpus runs the YAML programs, under plinth and under pulumi with
// pulumi-language-yaml. The JavaScript and TypeScript programs run in
// ./jsts, the Go programs in ./golang: three test binaries, so that each
// stays well inside go test's ten minutes on a loaded 2-core machine.
func TestCorpus(t *testing.T) { corpus.Run(t, "yaml") }
