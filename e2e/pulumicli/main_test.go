//go:build unix

package pulumicli_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/plinth-iac/plinth/internal/modbuild"
)

// pulumiCLI is the CLI the tests run; skipWhy, if set, is why there is none.
var pulumiCLI, skipWhy string

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		skipWhy = "-short: these tests need the pulumi CLI, which may have to be built"
	} else {
		var err error
		if pulumiCLI, err = findCLI(); err != nil {
			skipWhy = err.Error()
		}
	}
	os.Exit(m.Run())
}

// needCLI skips the test when there is no pulumi CLI.
func needCLI(t *testing.T) string {
	t.Helper()
	if skipWhy != "" {
		t.Skip(skipWhy)
	}
	return pulumiCLI
}

// findCLI returns the CLI modbuild.PulumiCLI finds or builds, from
// the module in testdata/climodule.
func findCLI() (string, error) {
	return modbuild.PulumiCLI(context.Background(), filepath.Join("testdata", "climodule"))
}
