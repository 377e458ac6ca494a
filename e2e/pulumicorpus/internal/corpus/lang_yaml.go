//go:build unix

package corpus

import (
	"testing"

	"github.com/plinth-iac/plinth/internal/langhost/runtime/yamltest"
)

// YAML programs run through pulumi-language-yaml, built from the Go module
// proxy, so the pulumi CLI runs them in CI: their expectations are checked
// against pulumi at every run.
func init() {
	register("yaml", language{
		path: func(t *testing.T) []string { return []string{yamltest.Dir(t)} },
		live: true,
	})
}
