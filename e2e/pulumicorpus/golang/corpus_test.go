//go:build unix

package golang_test

import (
	"os"
	"testing"

	"github.com/plinth-iac/plinth/e2e/pulumicorpus/internal/corpus"
)

func TestMain(m *testing.M) { os.Exit(corpus.Main(m, "..")) }

// TestCorpus runs the corpus's Go programs under plinth, compared with
// their recordings from pulumi.
func TestCorpus(t *testing.T) { corpus.Run(t, "go") }
