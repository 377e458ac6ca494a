package secrets

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// failingStore is a ConfigStore that has nothing and cannot keep
// anything.
type failingStore struct{ memStore }

var errDiskFull = errors.New("disk full")

func (*failingStore) WriteSecretsConfig(context.Context, string, []byte) error { return errDiskFull }

func (*failingStore) CreateSecretsConfig(context.Context, string, []byte) (bool, []byte, error) {
	return false, nil, errDiskFull
}

// TestBackgroundCreate: with Background, a new passphrase stack's Open
// returns while its key is still being derived (the gate holds the
// derivation back, so an Open that waited would never return), having
// stored nothing and set no salt; once the key is derived the
// configuration is stored with its check value, the salt line is set and
// the key handed to the cache, all before Verify returns. The stack is
// then what a synchronous create makes: the right passphrase opens what
// the Crypter sealed, a wrong one is refused.
func TestBackgroundCreate(t *testing.T) {
	ctx := context.Background()
	store, salt, keys, g := &memStore{}, &saltLine{}, &fakeKeys{}, newGate()
	c, warning, err := Open(ctx, store, "dev", Options{Passphrase: "right", KDF: cheap, Salt: salt, Keys: keys, Background: true, OnDerive: g.hook})
	if err != nil || warning != "" {
		t.Fatalf("Open = %v, warning %q", err, warning)
	}
	if !c.Fresh() {
		t.Error("a new stack's Crypter is not Fresh")
	}
	if store.writes != 0 {
		t.Errorf("the configuration was stored before the key was derived (%d writes)", store.writes)
	}
	close(g.open)
	if g.wasStuck() {
		t.Fatal("Open waited for the derivation it was to leave in the background")
	}
	if err := c.Verify(); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if store.writes != 1 || salt.line == "" {
		t.Fatalf("after Verify: %d writes, salt %q; want the configuration stored and the salt set", store.writes, salt.line)
	}
	if diff := cmp.Diff([]string{"right"}, keys.kept); diff != "" {
		t.Errorf("keys handed over (-want +got):\n%s", diff)
	}
	sealed, err := c.Seal([]byte("s3cret"))
	if err != nil {
		t.Fatal(err)
	}
	for _, from := range []SaltStore{salt, nil} { // the committed line, and the store alone
		again, _, err := Open(ctx, store, "dev", Options{Passphrase: "right", Salt: from})
		if err != nil {
			t.Fatalf("reopening: %v", err)
		}
		if plain, err := again.Open(sealed); err != nil || string(plain) != "s3cret" {
			t.Errorf("reopened: Open = %q, %v; want the secret", plain, err)
		}
		if again.Fresh() {
			t.Error("an existing stack's Crypter is Fresh")
		}
		if _, _, err := Open(ctx, store, "dev", Options{Passphrase: "wrong", Salt: from}); !errors.Is(err, ErrWrongPassphrase) {
			t.Errorf("a wrong passphrase: %v, want ErrWrongPassphrase", err)
		}
	}
	if g.count() != 1 {
		t.Errorf("the key was derived %d times, want once", g.count())
	}
}

// TestBackgroundCreateStoreFails: a configuration that cannot be stored
// fails Verify and Seal with the store's error, so nothing is sealed
// with a key whose check value is nowhere, and sets no salt line.
func TestBackgroundCreateStoreFails(t *testing.T) {
	salt := &saltLine{}
	c, _, err := Open(context.Background(), &failingStore{}, "dev", Options{Passphrase: "right", KDF: cheap, Salt: salt, Background: true})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	_, serr := c.Seal([]byte("s3cret"))
	for i, err := range []error{c.Verify(), serr} {
		if !errors.Is(err, errDiskFull) {
			t.Errorf("call %d: %v, want the store's error", i, err)
		}
	}
}
