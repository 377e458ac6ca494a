//go:build unix

package corpus

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/plinth-iac/plinth/internal/langhost/nodejs/nodetest"
)

// nodePackage is the directory whose package.json and package-lock.json
// name what every JavaScript and TypeScript program of the corpus needs
// (@pulumi/pulumi, and TypeScript for the ts- programs). It is installed
// once with npm ci and cached (nodetest.Modules); each program's copy
// links to it, so the corpus costs one install however many programs it
// has. The programs' own package.json files name the same versions, as
// a user's would.
func nodePackage() string { return filepath.Join(root, "nodejs") }

// JavaScript and TypeScript programs run through plinth's own launch of
// node; pulumi-language-nodejs is not served by the Go module proxy, so
// pulumi cannot run them in CI: their expectations were recorded with a
// host built from pulumi's source (-record, PLINTH_CORPUS_HOSTS).
func init() {
	// A dynamic provider is node loading @pulumi/pulumi, seconds of CPU,
	// and the corpus runs programs side by side on loaded machines:
	// plinth, run in process, reads the plugin start timeout from the
	// process environment, so it is set there (a minute, not 10s).
	if os.Getenv(handshakeTimeoutEnv) == "" {
		os.Setenv(handshakeTimeoutEnv, "60s")
	}
	register("js", language{prepare: linkNodeModules, path: needNode, env: nodeEnv(false)})
	register("ts", language{prepare: linkNodeModules, path: needNode, env: nodeEnv(true)})
}

// handshakeTimeoutEnv bounds plinth's wait for a plugin to start.
const handshakeTimeoutEnv = "PLINTH_PLUGIN_HANDSHAKE_TIMEOUT"

// nodeEnv returns the variables of JavaScript or TypeScript programs.
// ts-node type-checks a program at every run, and a ts- program runs a
// dozen times: both tools only transpile (a setting of @pulumi/pulumi's
// own launcher, which plinth and pulumi's host both start).
func nodeEnv(typescript bool) func(*testing.T) map[string]string {
	return func(*testing.T) map[string]string {
		if !typescript {
			return nil
		}
		return map[string]string{"PULUMI_NODEJS_TRANSPILE_ONLY": "true"}
	}
}

// linkNodeModules makes the shared node_modules that of the program in dir.
func linkNodeModules(t *testing.T, dir string) {
	t.Helper()
	nodetest.Link(t, dir, nodetest.Modules(t, nodePackage()))
}

// needNode skips the test without node, which plinth and pulumi's host
// find on PATH; it adds no directory of its own.
func needNode(t *testing.T) []string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("skipping: JavaScript and TypeScript programs need node on PATH (Node.js 18 or later)")
	}
	return nil
}
