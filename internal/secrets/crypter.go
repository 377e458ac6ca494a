package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// KeySize is the length of a stack's key in bytes (AES-256).
const KeySize = 32

// sealPrefix marks the ciphertext format, so that it can change later.
const sealPrefix = "v1:"

// ErrDamaged is returned (wrapped) by Open for a ciphertext that was not
// sealed by this key or was changed since.
var ErrDamaged = errors.New("the ciphertext is damaged or was sealed with a different key")

// Crypter seals and opens values with one stack's key. It implements the
// Crypter interface of internal/state and is safe for concurrent use.
type Crypter struct {
	aead cipher.AEAD
	// older open values sealed with earlier keys while a change of
	// provider is in progress; Seal never uses them.
	older []cipher.AEAD
	// later, if set, is the key still being derived in the background
	// (Options.Background): every method waits for it and then uses the
	// Crypter it made, or fails with its error.
	later *derivation
	// fresh says the key is a new stack's, being made in the background
	// (see Fresh).
	fresh bool
}

// derivation is a key being derived in a goroutine.
type derivation struct {
	done chan struct{}
	c    *Crypter
	err  error
}

// deriveLater starts derive in a goroutine and returns a Crypter that
// waits for it.
func deriveLater(derive func() (*Crypter, error)) *Crypter {
	d := &derivation{done: make(chan struct{})}
	go func() {
		defer close(d.done)
		d.c, d.err = derive()
	}()
	return &Crypter{later: d}
}

// ready returns the Crypter to use: c itself, or, once it is derived,
// the one c was waiting for.
func (c *Crypter) ready() (*Crypter, error) {
	if c.later == nil {
		return c, nil
	}
	<-c.later.done
	return c.later.c, c.later.err
}

// Verify waits until the key is derived and returns the error opening
// the stack's secrets would have: ErrWrongPassphrase (wrapped) when the
// passphrase is wrong. A command that records anything calls it first,
// and one that never seals or opens a secret calls it before it ends, so
// that a wrong passphrase never passes silently.
func (c *Crypter) Verify() error {
	_, err := c.ready()
	return err
}

// Fresh reports whether c is the key of a stack that Open is creating
// in the background (Options.Background). Any passphrase opens a new
// stack, so its Verify cannot report a wrong passphrase, only a failure
// to store the stack's configuration: a command need not wait for it
// before it reads or locks the state, only before it records anything
// (and Seal waits for it anyway).
func (c *Crypter) Fresh() bool { return c.fresh }

// with returns a Crypter that seals with c and opens with c or o.
func (c *Crypter) with(o *Crypter) *Crypter {
	// Only Open's synchronous paths combine Crypters, so neither is one
	// still waiting for its key (later is nil).
	out := &Crypter{aead: c.aead, older: append(append([]cipher.AEAD{}, c.older...), o.aead)}
	out.older = append(out.older, o.older...)
	return out
}

// NewCrypter returns a Crypter for a KeySize-byte key.
func NewCrypter(key []byte) (*Crypter, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("a secrets key must be %d bytes, not %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("creating the cipher: %w", err)
	}
	aead, err := cipher.NewGCMWithRandomNonce(block)
	if err != nil {
		return nil, fmt.Errorf("creating the cipher: %w", err)
	}
	return &Crypter{aead: aead}, nil
}

// Seal encrypts plaintext under a fresh random nonce and returns it as
// text: "v1:" and the base64 of nonce, ciphertext and tag.
func (c *Crypter) Seal(plaintext []byte) (string, error) {
	c, err := c.ready()
	if err != nil {
		return "", err
	}
	sealed := c.aead.Seal(nil, nil, plaintext, nil)
	return sealPrefix + base64.RawStdEncoding.EncodeToString(sealed), nil
}

// Open decrypts what Seal returned.
func (c *Crypter) Open(ciphertext string) ([]byte, error) {
	c, err := c.ready()
	if err != nil {
		return nil, err
	}
	body, ok := strings.CutPrefix(ciphertext, sealPrefix)
	if !ok {
		return nil, fmt.Errorf("unsupported ciphertext format (want the prefix %q)", sealPrefix)
	}
	sealed, err := base64.RawStdEncoding.DecodeString(body)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	plain, err := c.aead.Open(nil, nil, sealed, nil)
	for _, o := range c.older {
		if err == nil {
			break
		}
		plain, err = o.Open(nil, nil, sealed, nil)
	}
	if err != nil {
		return nil, ErrDamaged
	}
	return plain, nil
}
