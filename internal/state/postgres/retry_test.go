package postgres_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state/postgres"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
)

// proxied opens a backend over a fresh database through a cutProxy, and
// seeds its stack dev.
func proxied(t *testing.T) (*postgres.Backend, *cutProxy) {
	t.Helper()
	direct := pgtest.Database(t)
	p := newCutProxy(t, pgtest.Shared(t).Port(), func() {})
	b := openAs(t, p.url(direct), "test")
	seed(t, b)
	return b, p
}

// TestReadRetriedAfterLostConnection cuts the pooled connection as a
// read (or an idempotent write) is sent, after the check before reuse,
// as a restart at that moment would: it runs again, once, on a new
// connection, and returns what is stored.
func TestReadRetriedAfterLostConnection(t *testing.T) {
	retried := map[string]bool{"read the snapshot": true, "read the backup": true, "read the journal": true,
		"list the stacks": true, "read the history": true, "read the history's tail": true, "read the mark": true, "write the mark": true}
	for _, op := range backendOps() {
		if !retried[op.name] {
			continue
		}
		t.Run(op.name, func(t *testing.T) {
			b, p := proxied(t)
			p.arm(cutRequest)
			got, err := op.run(context.Background(), b)
			if !p.fired() {
				t.Fatal("the proxy cut no connection")
			}
			if err != nil {
				t.Fatalf("%s whose connection was cut: %v", op.name, err)
			}
			if diff := cmp.Diff(op.want, got); diff != "" {
				t.Errorf("%s whose connection was cut (-want +got):\n%s", op.name, diff)
			}
		})
	}
}

// TestWriteNotRetriedAfterLostConnection cuts the pooled connection
// after the server committed a write that is not idempotent, dropping
// its answer: the write fails saying the connection was lost, and is
// stored once, not run again.
func TestWriteNotRetriedAfterLostConnection(t *testing.T) {
	ctx := context.Background()
	for name, tc := range map[string]struct {
		write  func(b *postgres.Backend) error
		stored func(b *postgres.Backend) any
		want   any
	}{
		"append to the history": {
			write: func(b *postgres.Backend) error { return b.AppendHistory(ctx, "dev", []byte(`{"id":"op2"}`)) },
			stored: func(b *postgres.Backend) any {
				h, err := b.ReadHistory(ctx, "dev")
				mustDo(t, err)
				return strs(h)
			},
			want: []string{readHistory, `{"id": "op2"}`},
		},
		"append to the journal": {
			write:  func(b *postgres.Backend) error { return b.AppendJournal(ctx, "dev", records(3, 1)) },
			stored: func(b *postgres.Backend) any { return journalOf(t, b, "dev") },
			want:   strs(records(1, 3)),
		},
		"write the snapshot": {
			write: func(b *postgres.Backend) error { return b.WriteSnapshot(ctx, "dev", []byte(`{"version":2,"seq":7}`)) },
			stored: func(b *postgres.Backend) any {
				backup, _, err := b.ReadBackup(ctx, "dev")
				mustDo(t, err)
				return []string{devSnapshot(t, b), string(backup)}
			},
			want: []string{`{"version":2,"seq":7}`, seededSnapshot},
		},
	} {
		t.Run(name, func(t *testing.T) {
			b, p := proxied(t)
			p.arm(cutAnswer)
			err := tc.write(b)
			var ue *postgres.UnreachableError
			if !errors.As(err, &ue) || !ue.Lost {
				t.Errorf("%s whose answer was cut: error = %v, want a *postgres.UnreachableError saying the connection was lost", name, err)
			}
			if diff := cmp.Diff(tc.want, tc.stored(b)); diff != "" {
				t.Errorf("what is stored after the cut write (-want +got):\n%s", diff)
			}
		})
	}
}
