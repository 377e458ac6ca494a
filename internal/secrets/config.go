package secrets

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/crypto/argon2"
)

// PassphraseEnv is the environment variable holding the passphrase.
const PassphraseEnv = "PLINTH_PASSPHRASE"

// ConfigStore holds a stack's secrets configuration. Every state backend
// implements it; ReadSecretsConfig reports a missing configuration with an
// error matching fs.ErrNotExist.
type ConfigStore interface {
	ReadSecretsConfig(ctx context.Context, stack string) ([]byte, error)
	WriteSecretsConfig(ctx context.Context, stack string, data []byte) error
}

// ErrWrongPassphrase is returned (wrapped) when the passphrase does not
// open a stack's secrets.
var ErrWrongPassphrase = errors.New("wrong passphrase")

// KDFParams are argon2id's cost parameters.
type KDFParams struct {
	Time    uint32 `json:"time"`
	Memory  uint32 `json:"memoryKiB"`
	Threads uint8  `json:"threads"`
}

// DefaultKDF is RFC 9106's second recommended argon2id setting (64 MiB,
// three passes): about a tenth of a second on a laptop, once per command.
var DefaultKDF = KDFParams{Time: 3, Memory: 64 * 1024, Threads: 4}

// Options say where the key comes from.
type Options struct {
	// Passphrase derives the key when set; "" means none.
	Passphrase string
	// KDF is the cost of deriving a key from a new passphrase; zero means
	// DefaultKDF. An existing configuration keeps the parameters it has.
	KDF KDFParams
}

// FromEnv returns Options with the passphrase from PLINTH_PASSPHRASE.
func FromEnv() Options { return Options{Passphrase: os.Getenv(PassphraseEnv)} }

// config is the stored configuration: exactly one of Passphrase and Key.
type config struct {
	Version    int               `json:"version"`
	Passphrase *passphraseConfig `json:"passphrase,omitempty"`
	Key        []byte            `json:"key,omitempty"`
}

type passphraseConfig struct {
	Salt []byte    `json:"salt"`
	KDF  KDFParams `json:"kdf"`
	// Check is checkText sealed with the derived key.
	Check string `json:"check"`
}

const checkText = "plinth secrets check"

// Open returns the Crypter for a stack, creating its configuration the
// first time. warning is non-empty when a key was generated and stored,
// for the caller to show once. A wrong or missing passphrase is an error
// and changes nothing.
func Open(ctx context.Context, store ConfigStore, stack string, opts Options) (c *Crypter, warning string, err error) {
	data, err := store.ReadSecretsConfig(ctx, stack)
	if errors.Is(err, fs.ErrNotExist) {
		return create(ctx, store, stack, opts)
	}
	if err != nil {
		return nil, "", fmt.Errorf("reading the secrets configuration of stack %s: %w", stack, err)
	}
	var cfg config
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, "", fmt.Errorf("the secrets configuration of stack %s is damaged (%v); restore it from a backup, or secrets stored in the stack cannot be read", stack, err)
	}
	return open(stack, &cfg, opts)
}

func open(stack string, cfg *config, opts Options) (*Crypter, string, error) {
	switch {
	case cfg.Version != 1:
		return nil, "", fmt.Errorf("the secrets configuration of stack %s has version %d, which this plinth cannot read; upgrade plinth", stack, cfg.Version)
	case cfg.Key != nil:
		c, err := NewCrypter(cfg.Key)
		if err != nil {
			return nil, "", fmt.Errorf("the secrets key of stack %s is damaged: %w", stack, err)
		}
		return c, "", nil
	case cfg.Passphrase != nil:
		return openPassphrase(stack, cfg.Passphrase, opts.Passphrase)
	}
	return nil, "", fmt.Errorf("the secrets configuration of stack %s holds neither a key nor a passphrase salt; restore it from a backup", stack)
}

func openPassphrase(stack string, p *passphraseConfig, passphrase string) (*Crypter, string, error) {
	if passphrase == "" {
		return nil, "", fmt.Errorf("the secrets of stack %s are protected by a passphrase: set %s to it", stack, PassphraseEnv)
	}
	c, err := NewCrypter(deriveKey(passphrase, p.Salt, p.KDF))
	if err != nil {
		return nil, "", err
	}
	got, err := c.Open(p.Check)
	if err != nil || subtle.ConstantTimeCompare(got, []byte(checkText)) != 1 {
		return nil, "", fmt.Errorf("%w: the passphrase in %s does not decrypt the secrets of stack %s; set it to the passphrase the stack was created with (nothing was changed)", ErrWrongPassphrase, PassphraseEnv, stack)
	}
	return c, "", nil
}

func deriveKey(passphrase string, salt []byte, p KDFParams) []byte {
	return argon2.IDKey([]byte(passphrase), salt, p.Time, p.Memory, p.Threads, KeySize)
}

func create(ctx context.Context, store ConfigStore, stack string, opts Options) (*Crypter, string, error) {
	cfg, c, warning, err := newConfig(stack, opts)
	if err != nil {
		return nil, "", err
	}
	data, err := json.Marshal(cfg)
	if err != nil {
		return nil, "", fmt.Errorf("encoding the secrets configuration: %w", err)
	}
	if err := store.WriteSecretsConfig(ctx, stack, data); err != nil {
		return nil, "", fmt.Errorf("storing the secrets configuration of stack %s: %w", stack, err)
	}
	return c, warning, nil
}

func newConfig(stack string, opts Options) (*config, *Crypter, string, error) {
	if opts.Passphrase == "" {
		key := randomBytes(KeySize)
		c, err := NewCrypter(key)
		warning := fmt.Sprintf("plinth generated a key to encrypt the secrets of stack %s and stored it beside the stack's state; "+
			"anyone who can read it can read the secrets, and if it is lost they cannot be recovered. "+
			"To use a passphrase instead, set %s before a stack's first update.", stack, PassphraseEnv)
		return &config{Version: 1, Key: key}, c, warning, err
	}
	kdf := opts.KDF
	if kdf == (KDFParams{}) {
		kdf = DefaultKDF
	}
	p := &passphraseConfig{Salt: randomBytes(16), KDF: kdf}
	c, err := NewCrypter(deriveKey(opts.Passphrase, p.Salt, kdf))
	if err != nil {
		return nil, nil, "", err
	}
	p.Check, _ = c.Seal([]byte(checkText))
	return &config{Version: 1, Passphrase: p}, c, "", nil
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails; it crashes the program instead
	return b
}
