package engine_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
	"github.com/plinth-iac/plinth/internal/state/postgres"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
)

// crashBackendEnv, when set (to a postgres:// URL), makes the crash test
// and its children keep the state in PostgreSQL instead of dir.
const crashBackendEnv = "PLINTH_CRASH_BACKEND"

// crashBackend opens the crash test's state backend: the database named
// by PLINTH_CRASH_BACKEND, else the directory dir.
func crashBackend(dir string) state.Backend {
	url := os.Getenv(crashBackendEnv)
	if url == "" {
		return file.New(dir)
	}
	b, err := postgres.Open(context.Background(), postgres.Config{URL: url, Project: "proj"})
	if err != nil {
		fmt.Fprintln(os.Stderr, "crash test:", err)
		os.Exit(3)
	}
	return b
}

// TestCrashAtRandomMomentsLosesNothingOnPostgres is the crash test with
// the state in PostgreSQL: SIGKILL at random moments, at least 20 kills,
// and the same exact check of ledger against state after each recovery.
func TestCrashAtRandomMomentsLosesNothingOnPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test runs child processes; skipped with -short")
	}
	t.Setenv(crashBackendEnv, pgtest.Database(t))
	crashTest(t)
}
