package pgtest

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
)

// The cluster a test binary's tests share: started by the first test that
// asks for it, stopped by Main. A test binary is one package's tests, so
// this is shared by them and no one else.
var shared struct {
	once    sync.Once
	mu      sync.Mutex
	cluster *Cluster
	err     error
}

// Main runs a package's tests (call it from TestMain) and stops the
// shared cluster, if one was started, when they end.
func Main(m *testing.M) int {
	code := m.Run()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.cluster != nil {
		if err := shared.cluster.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping the test PostgreSQL cluster:", err)
		}
	}
	return code
}

// Shared returns the package's shared cluster, starting it on first use.
// Without server binaries the test is skipped, saying why; any other
// failure to start fails it.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	shared.once.Do(func() {
		c, err := Start(Options{})
		shared.mu.Lock()
		shared.cluster, shared.err = c, err
		shared.mu.Unlock()
	})
	switch {
	case errors.Is(shared.err, ErrNoServer):
		t.Skipf("PostgreSQL tests skipped: %v", shared.err)
	case shared.err != nil:
		t.Fatalf("starting a throwaway PostgreSQL cluster: %v", shared.err)
	}
	return shared.cluster
}

// Database creates an empty database in the shared cluster and returns
// its URL.
func Database(t testing.TB) string {
	t.Helper()
	url, err := Shared(t).NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	return url
}
