package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/postgres"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
)

// secret is the password in the URLs of ownCluster's databases: the
// server (trust authentication) never asks for it, and no message may
// show it.
const secret = "s3cret-pw"

// ownCluster starts a cluster of the test's own, which it may stop and
// restart without disturbing other tests, stopped when the test ends.
func ownCluster(t *testing.T) *pgtest.Cluster {
	t.Helper()
	pgtest.Shared(t) // skips the test where there is no server
	c, err := pgtest.Start(pgtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Stop() })
	return c
}

// newDatabase creates a database in c and returns its URL, with secret
// as the password.
func newDatabase(t *testing.T, c *pgtest.Cluster) string {
	t.Helper()
	url, err := c.NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(url, "//plinth@", "//plinth:"+secret+"@", 1)
}

const (
	seededSnapshot = `{"version":2,"seq":2,"resources":[]}`
	seededSecrets  = `{"salt":"abc"}`
	seededHistory  = `{"id":"op1","kind":"up"}`
	// readHistory is seededHistory as jsonb gives it back.
	readHistory = `{"id": "op1", "kind": "up"}`
)

// seed writes a stack dev through b as a command would: a snapshot, a
// secrets configuration, a history row and two journal records (which
// move the mark to sequence 2). The pool then holds connections, idle.
func seed(t *testing.T, b *postgres.Backend) {
	t.Helper()
	ctx := context.Background()
	mustDo(t, b.WriteSnapshot(ctx, "dev", []byte(seededSnapshot)))
	mustDo(t, b.WriteSecretsConfig(ctx, "dev", []byte(seededSecrets)))
	mustDo(t, b.AppendHistory(ctx, "dev", []byte(seededHistory)))
	mustDo(t, b.AppendJournal(ctx, "dev", records(1, 2)))
}

// backendOp is one kind of use a command makes of the backend, and what
// it returns (or, for a write, what reading back gives) on a seeded stack.
type backendOp struct {
	name string
	run  func(ctx context.Context, b *postgres.Backend) (any, error)
	want any
}

func backendOps() []backendOp {
	return []backendOp{
		{"read the snapshot", func(ctx context.Context, b *postgres.Backend) (any, error) {
			data, err := b.ReadSnapshot(ctx, "dev")
			return string(data), err
		}, seededSnapshot},
		{"read the backup", func(ctx context.Context, b *postgres.Backend) (any, error) {
			data, _, err := b.ReadBackup(ctx, "dev")
			return string(data), err
		}, seededSnapshot},
		{"read the journal", func(ctx context.Context, b *postgres.Backend) (any, error) {
			jr, err := b.ReadJournal(ctx, "dev")
			return strs(jr.Records), err
		}, strs(records(1, 2))},
		{"list the stacks", func(ctx context.Context, b *postgres.Backend) (any, error) {
			return b.ListStacks(ctx)
		}, []string{"dev"}},
		{"read the secrets configuration", func(ctx context.Context, b *postgres.Backend) (any, error) {
			data, err := b.ReadSecretsConfig(ctx, "dev")
			return string(data), err
		}, seededSecrets},
		{"write the secrets configuration", func(ctx context.Context, b *postgres.Backend) (any, error) {
			if err := b.WriteSecretsConfig(ctx, "dev", []byte(`{"salt":"new"}`)); err != nil {
				return nil, err
			}
			data, err := b.ReadSecretsConfig(ctx, "dev")
			return string(data), err
		}, `{"salt":"new"}`},
		{"read the history", func(ctx context.Context, b *postgres.Backend) (any, error) {
			h, err := b.ReadHistory(ctx, "dev")
			return strs(h), err
		}, []string{readHistory}},
		{"read the history's tail", func(ctx context.Context, b *postgres.Backend) (any, error) {
			h, err := b.ReadHistoryTail(ctx, "dev")
			return strs(h), err
		}, []string{readHistory}},
		{"append to the history", func(ctx context.Context, b *postgres.Backend) (any, error) {
			if err := b.AppendHistory(ctx, "dev", []byte(`{"id":"op2","kind":"up"}`)); err != nil {
				return nil, err
			}
			h, err := b.ReadHistory(ctx, "dev")
			return strs(h), err
		}, []string{readHistory, `{"id": "op2", "kind": "up"}`}},
		{"append to the journal", func(ctx context.Context, b *postgres.Backend) (any, error) {
			if err := b.AppendJournal(ctx, "dev", records(3, 1)); err != nil {
				return nil, err
			}
			jr, err := b.ReadJournal(ctx, "dev")
			return strs(jr.Records), err
		}, strs(records(1, 3))},
		{"read the mark", func(ctx context.Context, b *postgres.Backend) (any, error) {
			data, err := b.ReadMark(ctx, "dev")
			return strings.Contains(string(data), `"seq":2`), err
		}, true},
		{"write the mark", func(ctx context.Context, b *postgres.Backend) (any, error) {
			if err := b.WriteMark(ctx, "dev", []byte(`{"state":{"lineage":"l1","serial":3,"seq":9}}`)); err != nil {
				return nil, err
			}
			data, err := b.ReadMark(ctx, "dev")
			return strings.Contains(string(data), `{"lineage":"l1","serial":3,"seq":9}`), err
		}, true},
		{"lock, append, compact and unlock", func(ctx context.Context, b *postgres.Backend) (any, error) {
			u, err := b.Lock(ctx, "dev", state.CurrentProcess("test"))
			if err != nil {
				return nil, err
			}
			err = errors.Join(b.AppendJournal(ctx, "dev", records(3, 1)),
				b.Compact(ctx, "dev", []byte(`{"version":2,"seq":3,"resources":[]}`)), u.Unlock(ctx))
			data, rerr := b.ReadSnapshot(ctx, "dev")
			return string(data), errors.Join(err, rerr)
		}, `{"version":2,"seq":3,"resources":[]}`},
	}
}

// TestOperationsAfterServerRestart uses a backend, restarts the server
// (a fast shutdown, which ends every session, and a start on the same
// port) and uses the same backend again, as a long-running command or
// one whose connections sat idle does: every kind of use works on the
// first try, on a live connection, and finds what was there.
func TestOperationsAfterServerRestart(t *testing.T) {
	c := ownCluster(t)
	for _, op := range backendOps() {
		t.Run(op.name, func(t *testing.T) {
			ctx := context.Background()
			b := openAs(t, newDatabase(t, c), "test")
			seed(t, b)
			mustDo(t, c.Restart())
			got, err := op.run(ctx, b)
			if err != nil {
				t.Fatalf("%s after the server restarted: %v", op.name, err)
			}
			if diff := cmp.Diff(op.want, got); diff != "" {
				t.Errorf("%s after the server restarted (-want +got):\n%s", op.name, diff)
			}
		})
	}
}

// TestOperationsWhileServerDown stops the server after a backend was
// used, then uses it: every kind of use fails, saying the server cannot
// be reached, at which host and port, and how to fix it, never showing
// the password; a backend cannot be opened either. Once the server is
// back, the stack is as it was.
func TestOperationsWhileServerDown(t *testing.T) {
	c := ownCluster(t)
	ctx := context.Background()
	url := newDatabase(t, c)
	b := openAs(t, url, "test")
	seed(t, b)
	mustDo(t, c.StopServer())
	addr := fmt.Sprintf("127.0.0.1:%d", c.Port())
	check := func(what string, err error) {
		t.Helper()
		var ue *postgres.UnreachableError
		switch {
		case err == nil:
			t.Errorf("%s while the server is down: no error", what)
		case strings.Contains(err.Error(), secret):
			t.Errorf("%s while the server is down: the error shows the password: %v", what, err)
		case !strings.Contains(err.Error(), "PostgreSQL server at "+addr+" cannot be reached") ||
			!strings.Contains(err.Error(), "check that the server is running"):
			t.Errorf("%s while the server is down: error = %v, want one saying the server at %s cannot be reached and how to fix it", what, err, addr)
		case !errors.As(err, &ue):
			t.Errorf("%s while the server is down: error %v is no *postgres.UnreachableError", what, err)
		}
	}
	for _, op := range backendOps() {
		_, err := op.run(ctx, b)
		check(op.name, err)
	}
	_, err := postgres.Open(ctx, postgres.Config{URL: url, Project: "test"})
	check("opening a backend", err)
	mustDo(t, c.Restart())
	if diff := cmp.Diff(seededSnapshot, devSnapshot(t, b)); diff != "" {
		t.Errorf("the snapshot once the server is back (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(strs(records(1, 2)), journalOf(t, b, "dev")); diff != "" {
		t.Errorf("the journal once the server is back (-before +after):\n%s", diff)
	}
}

// devSnapshot reads the stack dev's snapshot.
func devSnapshot(t *testing.T, b *postgres.Backend) string {
	t.Helper()
	data, err := b.ReadSnapshot(context.Background(), "dev")
	mustDo(t, err)
	return string(data)
}
