package secrets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// memStore is a ConfigStore in memory that counts writes (creates
// included). It is safe for concurrent use.
type memStore struct {
	mu     sync.Mutex
	data   map[string][]byte
	writes int
}

func (m *memStore) ReadSecretsConfig(_ context.Context, stack string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.data[stack]
	if !ok {
		return nil, fmt.Errorf("stack %s: %w", stack, fs.ErrNotExist)
	}
	return d, nil
}

func (m *memStore) CreateSecretsConfig(_ context.Context, stack string, data []byte) (bool, []byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if d, ok := m.data[stack]; ok {
		return false, d, nil
	}
	m.put(stack, data)
	return true, nil, nil
}

func (m *memStore) WriteSecretsConfig(_ context.Context, stack string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.put(stack, data)
	return nil
}

func (m *memStore) put(stack string, data []byte) {
	if m.data == nil {
		m.data = map[string][]byte{}
	}
	m.data[stack] = data
	m.writes++
}

// cheap keeps argon2id fast in tests; real stacks use DefaultKDF.
var cheap = KDFParams{Time: 1, Memory: 64, Threads: 1}

func TestGeneratedKey(t *testing.T) {
	ctx := context.Background()
	store := &memStore{}
	c1, warning, err := Open(ctx, store, "dev", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warning, "generated a key to encrypt the secrets of stack dev") {
		t.Errorf("first open warning = %q", warning)
	}
	sealed, err := c1.Seal([]byte("hunter2"))
	if err != nil {
		t.Fatal(err)
	}
	c2, warning, err := Open(ctx, store, "dev", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if warning != "" {
		t.Errorf("second open warned again: %q", warning)
	}
	got, err := c2.Open(sealed)
	if err != nil || string(got) != "hunter2" {
		t.Errorf("reopened crypter opened %q, %v", got, err)
	}
	if store.writes != 1 {
		t.Errorf("writes = %d, want 1", store.writes)
	}
}

func TestPassphrase(t *testing.T) {
	ctx := context.Background()
	store := &memStore{}
	c1, warning, err := Open(ctx, store, "dev", Options{Passphrase: "correct horse", KDF: cheap})
	if err != nil || warning != "" {
		t.Fatalf("Open = %q, %v", warning, err)
	}
	if bytes.Contains(store.data["dev"], []byte("correct horse")) {
		t.Fatal("the passphrase is stored in the configuration")
	}
	sealed, _ := c1.Seal([]byte("s3cret"))
	c2, _, err := Open(ctx, store, "dev", Options{Passphrase: "correct horse"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c2.Open(sealed); err != nil || string(got) != "s3cret" {
		t.Errorf("reopened crypter opened %q, %v", got, err)
	}
}

func TestWrongOrMissingPassphraseChangesNothing(t *testing.T) {
	ctx := context.Background()
	store := &memStore{}
	if _, _, err := Open(ctx, store, "dev", Options{Passphrase: "right", KDF: cheap}); err != nil {
		t.Fatal(err)
	}
	before := bytes.Clone(store.data["dev"])
	tests := map[string]struct {
		passphrase string
		want       string
		is         error
	}{
		"wrong":   {"wrong", "the passphrase in PLINTH_PASSPHRASE does not decrypt the secrets of stack dev", ErrWrongPassphrase},
		"missing": {"", "the secrets of stack dev are protected by a passphrase: set PLINTH_PASSPHRASE", nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, _, err := Open(ctx, store, "dev", Options{Passphrase: tc.passphrase})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error does not wrap %v", tc.is)
			}
			if store.writes != 1 || !bytes.Equal(before, store.data["dev"]) {
				t.Errorf("the configuration changed")
			}
		})
	}
}

func TestDamagedConfig(t *testing.T) {
	tests := map[string]string{
		"not json":    `{"version":1,`,
		"newer":       `{"version":2,"key":"AAAA"}`,
		"short key":   `{"version":1,"key":"AAAA"}`,
		"neither one": `{"version":1}`,
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			store := &memStore{data: map[string][]byte{"dev": []byte(data)}}
			_, _, err := Open(context.Background(), store, "dev", Options{})
			if err == nil || !strings.Contains(err.Error(), "stack dev") {
				t.Fatalf("error = %v, want an error naming stack dev", err)
			}
			if store.writes != 0 {
				t.Errorf("a damaged configuration was overwritten")
			}
		})
	}
}

func TestSealUsesFreshNoncesAndDetectsTampering(t *testing.T) {
	c, err := NewCrypter(bytes.Repeat([]byte{7}, KeySize))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := c.Seal([]byte("same"))
	b, _ := c.Seal([]byte("same"))
	if a == b {
		t.Error("two seals of the same plaintext are equal: nonces are not fresh")
	}
	other, _ := NewCrypter(bytes.Repeat([]byte{8}, KeySize))
	flipped := []byte(a)
	flipped[len(flipped)-2] ^= 1
	tests := map[string]struct {
		c  *Crypter
		ct string
	}{
		"other key":   {other, a},
		"tampered":    {c, string(flipped)},
		"truncated":   {c, a[:10]},
		"not base64":  {c, "v1:!!!"},
		"wrong style": {c, "v9:" + a[3:]},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got, err := tc.c.Open(tc.ct); err == nil {
				t.Fatalf("Open succeeded with %q", got)
			}
		})
	}
	got, err := c.Open(a)
	if diff := cmp.Diff("same", string(got)); diff != "" || err != nil {
		t.Errorf("Open (-want +got):\n%s %v", diff, err)
	}
}

// saltLine is a SaltStore holding a committed encryptionsalt line.
type saltLine struct{ line string }

func (s *saltLine) Salt() string        { return s.line }
func (s *saltLine) SetSalt(line string) { s.line = line }
func (s *saltLine) Where() string       { return "plinth.dev.yaml" }

// gate is an OnDerive hook that counts derivations and holds each one
// back until it is opened. A derivation someone waits for before opening
// the gate would never end: after a generous bound it goes on and the
// gate records that it was stuck.
type gate struct {
	mu      sync.Mutex
	started int
	stuck   bool
	open    chan struct{}
}

func newGate() *gate { return &gate{open: make(chan struct{})} }

func (g *gate) hook() {
	g.mu.Lock()
	g.started++
	g.mu.Unlock()
	select {
	case <-g.open:
	case <-time.After(5 * time.Second):
		g.mu.Lock()
		g.stuck = true
		g.mu.Unlock()
	}
}

func (g *gate) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.started
}

func (g *gate) wasStuck() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stuck
}

// TestBackgroundDerivation: with Background, Open returns while the key
// is still being derived (the gate holds the derivation back, so an Open
// that waited would never return); the key is derived once however many
// calls need it; and a wrong passphrase fails Verify, Seal and Open with
// exactly the error a synchronous Open gives, sealing nothing.
func TestBackgroundDerivation(t *testing.T) {
	ctx := context.Background()
	store := &memStore{}
	salt := &saltLine{}
	first, _, err := Open(ctx, store, "dev", Options{Passphrase: "right", KDF: cheap, Salt: salt})
	if err != nil || salt.line == "" {
		t.Fatalf("creating the stack: %v, salt %q", err, salt.line)
	}
	sealed, _ := first.Seal([]byte("s3cret"))
	_, _, wantWrong := Open(ctx, store, "dev", Options{Passphrase: "wrong", Salt: salt})
	if !errors.Is(wantWrong, ErrWrongPassphrase) {
		t.Fatalf("a synchronous Open with the wrong passphrase: %v", wantWrong)
	}
	tests := map[string]struct {
		passphrase string
		want       error
	}{
		"right": {"right", nil},
		"wrong": {"wrong", wantWrong},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			g := newGate()
			c, _, err := Open(ctx, store, "dev", Options{Passphrase: tc.passphrase, Salt: salt, Background: true, OnDerive: g.hook})
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			close(g.open)
			if g.wasStuck() {
				t.Fatal("Open waited for the derivation it was to leave in the background")
			}
			errs := []error{c.Verify()}
			_, err = c.Seal([]byte("new"))
			errs = append(errs, err)
			plain, err := c.Open(sealed)
			errs = append(errs, err, c.Verify())
			for i, err := range errs {
				if diff := cmp.Diff(fmt.Sprint(tc.want), fmt.Sprint(err)); diff != "" {
					t.Errorf("call %d error (-want +got):\n%s", i, diff)
				}
			}
			if tc.want == nil && string(plain) != "s3cret" {
				t.Errorf("Open = %q, want the secret", plain)
			}
			if g.count() != 1 {
				t.Errorf("the key was derived %d times, want once", g.count())
			}
		})
	}
}

// TestBackgroundMissingPassphraseFailsAtOnce: no passphrase needs no
// derivation to find out: Open says so itself, as without Background.
func TestBackgroundMissingPassphraseFailsAtOnce(t *testing.T) {
	ctx := context.Background()
	store, salt := &memStore{}, &saltLine{}
	if _, _, err := Open(ctx, store, "dev", Options{Passphrase: "right", KDF: cheap, Salt: salt}); err != nil {
		t.Fatal(err)
	}
	_, _, err := Open(ctx, store, "dev", Options{Salt: salt, Background: true})
	if !errors.Is(err, ErrPassphraseRequired) {
		t.Errorf("Open without a passphrase = %v, want ErrPassphraseRequired", err)
	}
}
