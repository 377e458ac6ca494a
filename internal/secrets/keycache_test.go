package secrets

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeKeys is a KeyCache of function fields that records what it keeps.
type fakeKeys struct {
	KeyF func(salt []byte, kdf KDFParams, passphrase string) ([]byte, bool)
	kept []string // the passphrases of the keys handed over
	keys [][]byte
}

func (f *fakeKeys) Key(salt []byte, kdf KDFParams, passphrase string) ([]byte, bool) {
	if f.KeyF == nil {
		return nil, false
	}
	return f.KeyF(salt, kdf, passphrase)
}

func (f *fakeKeys) Keep(_ []byte, _ KDFParams, passphrase string, key []byte) {
	f.kept = append(f.kept, passphrase)
	f.keys = append(f.keys, append([]byte(nil), key...))
}

// TestKeyCache: a key from the cache spares the derivation only if it
// opens the check value; a derived key is handed over only once it has
// opened it; a wrong passphrase fails as without a cache, whatever the
// cache returns.
func TestKeyCache(t *testing.T) {
	ctx := context.Background()
	store := &memStore{}
	create, committed := &fakeKeys{}, &saltLine{}
	if _, _, err := Open(ctx, store, "dev", Options{Passphrase: "right", KDF: cheap, Keys: create, Salt: committed}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"right"}, create.kept); diff != "" {
		t.Fatalf("a new stack's key was not handed over (-want +got):\n%s", diff)
	}
	rightKey := create.keys[0]
	cases := map[string]struct {
		pass    string
		cached  []byte // what the cache returns, nil for a miss
		derived int
		kept    []string
		wrong   bool
	}{
		"miss":                          {"right", nil, 1, []string{"right"}, false},
		"hit":                           {"right", rightKey, 0, nil, false},
		"a key that opens nothing":      {"right", bytes.Repeat([]byte{1}, KeySize), 1, []string{"right"}, false},
		"a key of the wrong length":     {"right", []byte("short"), 1, []string{"right"}, false},
		"wrong passphrase, miss":        {"wrong", nil, 1, nil, true},
		"wrong passphrase, a wrong key": {"wrong", bytes.Repeat([]byte{1}, KeySize), 1, nil, true},
	}
	for name, tc := range cases {
		for _, background := range []bool{false, true} {
			if background {
				name += ", in the background"
			}
			t.Run(name, func(t *testing.T) {
				keys := &fakeKeys{KeyF: func([]byte, KDFParams, string) ([]byte, bool) {
					return append([]byte(nil), tc.cached...), tc.cached != nil
				}}
				derived := 0
				opts := Options{Passphrase: tc.pass, Keys: keys, Background: background, OnDerive: func() { derived++ }}
				if background { // the salt committed: the key in the background on a miss
					opts.Salt = &saltLine{line: committed.line}
				}
				c, _, err := Open(ctx, store, "dev", opts)
				if err == nil {
					err = c.Verify()
				}
				if got := errors.Is(err, ErrWrongPassphrase); got != tc.wrong || (err != nil && !tc.wrong) {
					t.Errorf("error %v, want a wrong passphrase: %v", err, tc.wrong)
				}
				if derived != tc.derived {
					t.Errorf("%d derivations, want %d", derived, tc.derived)
				}
				if diff := cmp.Diff(tc.kept, keys.kept); diff != "" {
					t.Errorf("keys handed over (-want +got):\n%s", diff)
				}
				for _, k := range keys.keys {
					if !bytes.Equal(k, rightKey) {
						t.Errorf("handed over %x, want the stack's key", k)
					}
				}
			})
		}
	}
}
