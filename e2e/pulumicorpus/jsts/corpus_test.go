//go:build unix

package jsts_test

import (
	"os"
	"testing"

	"github.com/plinth-iac/plinth/e2e/pulumicorpus/internal/corpus"
)

func TestMain(m *testing.M) { os.Exit(corpus.Main(m, "..")) }

// TestCorpus runs the corpus's JavaScript and TypeScript programs under
// plinth, compared with their recordings from pulumi.
func TestCorpus(t *testing.T) { corpus.Run(t, "js", "ts") }
