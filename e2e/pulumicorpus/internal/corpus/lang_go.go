//go:build unix

package corpus

import (
	"encoding/json"
	"os/exec"
	"sync"
	"testing"
)

// Go programs are built by plinth itself (internal/langhost/golang) with
// github.com/pulumi/pulumi/sdk/v3 from the Go module proxy; the pulumi
// CLI needs pulumi-language-go, which the proxy does not serve, so their
// expectations are recordings (-record with PLINTH_CORPUS_HOSTS holding
// pulumi-language-go built from pulumi's source).
//
// Each program is a module of its own (go.mod and go.sum as `go mod
// tidy` writes them for the SDK the project requires), as a user writes
// it. The harness gives the tools a HOME of their own, which would give
// the go command an empty build cache and module cache for every
// program: the go command's own settings are passed on instead, so that
// every program shares one module cache and one build cache and only
// links.
func init() {
	register("go", language{
		path: func(t *testing.T) []string {
			if _, err := exec.LookPath("go"); err != nil {
				t.Skip("Go programs need the go command on PATH")
			}
			return nil
		},
		env: goEnv,
	})
}

// goSettings are the go command's settings that a changed HOME would
// change; read once.
var goSettings = sync.OnceValues(func() (map[string]string, error) {
	out, err := exec.Command("go", "env", "-json", "GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY", "GOSUMDB", "GOTOOLCHAIN").Output()
	if err != nil {
		return nil, err
	}
	all := map[string]string{}
	if err := json.Unmarshal(out, &all); err != nil {
		return nil, err
	}
	set := map[string]string{}
	for k, v := range all {
		if v != "" {
			set[k] = v
		}
	}
	return set, nil
})

// goEnv is the environment of both tools for a Go program: the go
// command's caches and settings as the user has them.
func goEnv(t *testing.T) map[string]string {
	t.Helper()
	env, err := goSettings()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	return env
}
