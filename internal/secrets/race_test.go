package secrets

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// barrierStore is a memStore whose first n reads each wait until all n
// have been made (or a generous bound passes), so that n concurrent
// Opens of a new stack all find it without a configuration before any
// of them stores one: two first updates of a stack started at once.
type barrierStore struct {
	memStore
	n       int
	arrived int
	all     chan struct{}
}

func newBarrierStore(n int) *barrierStore { return &barrierStore{n: n, all: make(chan struct{})} }

func (b *barrierStore) ReadSecretsConfig(ctx context.Context, stack string) ([]byte, error) {
	data, err := b.memStore.ReadSecretsConfig(ctx, stack)
	b.mu.Lock()
	b.arrived++
	if b.arrived == b.n {
		close(b.all)
	}
	waits := b.arrived <= b.n
	b.mu.Unlock()
	if waits {
		select {
		case <-b.all:
		case <-time.After(5 * time.Second):
		}
	}
	return data, err
}

// TestConcurrentCreates: two Opens of a new stack that both find it
// without a configuration make a configuration each, but one is stored
// and both return its key: what either seals, the other opens, and so
// does a later Open from the store alone. A passphrase stack's salt line
// is the stored configuration's in both (each command commits it to the
// stack's config file).
func TestConcurrentCreates(t *testing.T) {
	tests := map[string]Options{
		"generated key":                {},
		"passphrase":                   {Passphrase: "pw", KDF: cheap},
		"passphrase in the background": {Passphrase: "pw", KDF: cheap, Background: true},
	}
	for name, opts := range tests {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			store := newBarrierStore(2)
			var crypters [2]*Crypter
			var salts [2]*saltLine
			var errs [2]error
			var wg sync.WaitGroup
			for i := range crypters {
				salts[i] = &saltLine{}
				o := opts
				o.Salt = salts[i]
				wg.Go(func() {
					crypters[i], _, errs[i] = Open(ctx, store, "dev", o)
					if errs[i] == nil {
						errs[i] = crypters[i].Verify()
					}
				})
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("Open %d: %v", i, err)
				}
			}
			stored, err := store.ReadSecretsConfig(ctx, "dev")
			if err != nil {
				t.Fatal(err)
			}
			again, _, err := Open(ctx, &memStore{data: map[string][]byte{"dev": stored}}, "dev", Options{Passphrase: opts.Passphrase})
			if err != nil {
				t.Fatalf("reopening from the store: %v", err)
			}
			all := []*Crypter{crypters[0], crypters[1], again}
			for i, sealer := range all {
				sealed, err := sealer.Seal(fmt.Appendf(nil, "sealed by %d", i))
				if err != nil {
					t.Fatal(err)
				}
				for j, opener := range all {
					if plain, err := opener.Open(sealed); err != nil || string(plain) != fmt.Sprintf("sealed by %d", i) {
						t.Errorf("what Crypter %d sealed, Crypter %d opens as %q, %v (2 is reopened from the store)", i, j, plain, err)
					}
				}
			}
			if opts.Passphrase != "" {
				want := storedLine(t, stored)
				if diff := cmp.Diff([]string{want, want}, []string{salts[0].line, salts[1].line}); diff != "" {
					t.Errorf("salt lines set, want the stored configuration's in both (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// storedLine is the salt line of a stored passphrase configuration.
func storedLine(t *testing.T, data []byte) string {
	t.Helper()
	var cfg config
	if err := json.Unmarshal(data, &cfg); err != nil || cfg.Passphrase == nil {
		t.Fatalf("the stored configuration %s is not a passphrase's (%v)", data, err)
	}
	return cfg.Passphrase.line()
}

// racedStore is a memStore in which another command creates the stack's
// configuration, other, just after the first read finds none.
type racedStore struct {
	memStore
	other []byte
	read  bool
}

func (r *racedStore) ReadSecretsConfig(ctx context.Context, stack string) ([]byte, error) {
	data, err := r.memStore.ReadSecretsConfig(ctx, stack)
	if !r.read {
		r.read = true
		r.memStore.put(stack, r.other)
	}
	return data, err
}

// TestLosingACreate: an Open that finds a new stack without a
// configuration, but loses the race to store its own, uses the one the
// other command stored: it opens what that command sealed, and its salt
// line is that command's. One it cannot open (another passphrase, or a
// passphrase stack and none given) is an error that says so, and changes
// nothing.
func TestLosingACreate(t *testing.T) {
	ctx := context.Background()
	tests := map[string]struct {
		winner, loser Options
		wantErr       error
		wantWarning   string
	}{
		"generated key": {winner: Options{}, loser: Options{}},
		"passphrase":    {winner: Options{Passphrase: "pw", KDF: cheap}, loser: Options{Passphrase: "pw", KDF: cheap}},
		"passphrase in the background": {winner: Options{Passphrase: "pw", KDF: cheap},
			loser: Options{Passphrase: "pw", KDF: cheap, Background: true}},
		"another passphrase": {winner: Options{Passphrase: "pw", KDF: cheap}, loser: Options{Passphrase: "other", KDF: cheap},
			wantErr: ErrWrongPassphrase},
		"another passphrase in the background": {winner: Options{Passphrase: "pw", KDF: cheap},
			loser: Options{Passphrase: "other", KDF: cheap, Background: true}, wantErr: ErrWrongPassphrase},
		"no passphrase": {winner: Options{Passphrase: "pw", KDF: cheap}, loser: Options{}, wantErr: ErrPassphraseRequired},
		"a passphrase for a generated key": {winner: Options{}, loser: Options{Passphrase: "pw", KDF: cheap},
			wantWarning: "the passphrase is not used"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			winnerStore := &memStore{}
			winner, _, err := Open(ctx, winnerStore, "dev", tc.winner)
			if err != nil {
				t.Fatal(err)
			}
			sealed, err := winner.Seal([]byte("s3cret"))
			if err != nil {
				t.Fatal(err)
			}
			other := winnerStore.data["dev"]
			store, salt := &racedStore{other: other}, &saltLine{}
			tc.loser.Salt = salt
			c, warning, err := Open(ctx, store, "dev", tc.loser)
			if err == nil {
				err = c.Verify()
			}
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), "another plinth command created") {
					t.Errorf("Open: %v, want %v saying another command created the configuration", err, tc.wantErr)
				}
				if salt.line != "" || !bytes.Equal(store.data["dev"], other) {
					t.Errorf("a refused Open set the salt line %q, stored %s", salt.line, store.data["dev"])
				}
				return
			}
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if !strings.Contains(warning, tc.wantWarning) || (tc.wantWarning == "" && warning != "") {
				t.Errorf("warning %q, want one saying %q", warning, tc.wantWarning)
			}
			if plain, err := c.Open(sealed); err != nil || string(plain) != "s3cret" {
				t.Errorf("the loser opens the winner's secret as %q, %v", plain, err)
			}
			if !bytes.Equal(store.data["dev"], other) || store.writes != 1 {
				t.Errorf("the store holds %s after %d writes, want the winner's configuration, written once", store.data["dev"], store.writes)
			}
			if tc.winner.Passphrase != "" && salt.line != storedLine(t, other) {
				t.Errorf("salt line %q, want the winner's %q", salt.line, storedLine(t, other))
			}
		})
	}
}
