package secrets

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// PassphraseEnv is the environment variable holding the passphrase.
const PassphraseEnv = "PLINTH_PASSPHRASE"

// ConfigStore holds a stack's secrets configuration. Every state backend
// implements it; ReadSecretsConfig reports a missing configuration with an
// error matching fs.ErrNotExist.
type ConfigStore interface {
	ReadSecretsConfig(ctx context.Context, stack string) ([]byte, error)
	// CreateSecretsConfig stores data as the stack's configuration if it
	// has none, in one atomic step: of two commands creating a new
	// stack's configuration at once, exactly one stores its own, and the
	// other is told created false and given the one stored (existing),
	// to use instead of its own. A new stack's configuration is only
	// ever stored this way, so no key anything was sealed with is
	// replaced.
	CreateSecretsConfig(ctx context.Context, stack string, data []byte) (created bool, existing []byte, err error)
	// WriteSecretsConfig replaces the stack's configuration: only a
	// change of provider (BeginChange, Finish), which has opened the
	// configuration it replaces, uses it.
	WriteSecretsConfig(ctx context.Context, stack string, data []byte) error
}

// ErrWrongPassphrase is returned (wrapped) when the passphrase does not
// open a stack's secrets.
var ErrWrongPassphrase error = &sentinel{msg: "wrong passphrase", summary: "Wrong passphrase"}

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
	// Salt, if set, is the committed home of a passphrase stack's salt
	// and check value (plinth.<stack>.yaml's encryptionsalt), read before
	// the store, so that a fresh clone with the passphrase can open the
	// stack's secrets. A salt found only in the store is handed to it.
	Salt SaltStore
	// Sealed, if set, lists the places that already hold values sealed
	// with the stack's key (config secure: values, secrets in the state).
	// When there are any, Open refuses to make a new key: it could not
	// open them.
	Sealed func() ([]string, error)
	// ReadOnly makes Open fail with ErrNotConfigured rather than create a
	// configuration (`config get` must not write a new salt).
	ReadOnly bool
	// Background makes Open return at once for a passphrase stack whose
	// salt is committed (the case of every command after the first):
	// the key is derived in a goroutine while the caller goes on, and
	// the Crypter's Seal, Open and Verify wait for it. A wrong passphrase
	// is then reported by the first of them, with the error Open would
	// have returned, and nothing can be sealed with the wrong key.
	//
	// A new passphrase stack's Open returns at once too, with a Fresh
	// Crypter: the salt is chosen, and the key derived, its check value
	// sealed and the configuration stored in the goroutine, which hands
	// the salt line to Salt.SetSalt before the Crypter is ready. The
	// caller must not read Salt until Verify has returned.
	Background bool
	// OnDerive, if set, is called as each derivation of a key from a
	// passphrase starts, in the goroutine that runs it: a test hook that
	// counts derivations or holds one back.
	OnDerive func()
	// Keys, if set, keeps passphrase keys between commands (the key
	// agent, internal/secrets/agent). A passphrase's key is asked of it
	// before it is derived, and handed to it once it has opened the
	// stack's check value. A key it returns is checked as a derived one
	// is, and one that does not open the check value is derived again,
	// so a wrong passphrase fails as it does without it.
	Keys KeyCache
}

// KeyCache keeps keys derived from passphrases. It must return a key
// only to a caller that gives the passphrase, salt and cost parameters
// the key was kept with.
type KeyCache interface {
	// Key returns the key kept for salt, kdf and passphrase.
	Key(salt []byte, kdf KDFParams, passphrase string) ([]byte, bool)
	// Keep keeps a key that opened its stack's check value. It must not
	// fail the command: a cache that cannot keep it drops it.
	Keep(salt []byte, kdf KDFParams, passphrase string, key []byte)
}

// SaltStore holds the salt line committed with a stack's config.
type SaltStore interface {
	// Salt returns the line, "" if there is none.
	Salt() string
	// SetSalt records the line; the owner writes it with the file.
	SetSalt(line string)
	// Where names the file, for messages.
	Where() string
}

// ErrPassphraseRequired is returned (wrapped) by Open for a passphrase
// stack when no passphrase was given.
var ErrPassphraseRequired error = &sentinel{msg: "passphrase required", summary: "Passphrase needed"}

// ErrNotConfigured is returned (wrapped) by Open with ReadOnly for a
// stack that has no secrets configuration yet.
var ErrNotConfigured = errors.New("the stack has no secrets configuration")

// FromEnv returns Options with the passphrase from PLINTH_PASSPHRASE.
func FromEnv() Options { return Options{Passphrase: os.Getenv(PassphraseEnv)} }

// config is the stored configuration: exactly one of Passphrase and Key.
type config struct {
	Version    int               `json:"version"`
	Passphrase *passphraseConfig `json:"passphrase,omitempty"`
	Key        []byte            `json:"key,omitempty"`
	// Next is the provider a change in progress moves to (see Change).
	Next *config `json:"next,omitempty"`
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
	if opts.Salt != nil && opts.Salt.Salt() != "" {
		p, err := parseSaltLine(opts.Salt.Salt())
		if err != nil {
			return nil, "", fmt.Errorf("the encryptionsalt in %s is damaged (%v); restore the line from version control", opts.Salt.Where(), err)
		}
		if opts.Passphrase == "" {
			return nil, "", passphraseRequired(stack)
		}
		pending := pendingConfig(ctx, store, stack)
		if c := opts.kept(p); c != nil {
			return withPending(stack, pending, opts, c), "", nil
		}
		derive := func() (*Crypter, error) {
			c, err := opts.derived(stack, p)
			if err != nil {
				return nil, err
			}
			return withPending(stack, pending, opts, c), nil
		}
		if opts.Background {
			return deriveLater(derive), "", nil
		}
		c, err := derive()
		return c, "", err
	}
	data, err := store.ReadSecretsConfig(ctx, stack)
	if errors.Is(err, fs.ErrNotExist) {
		return create(ctx, store, stack, opts)
	}
	if err != nil {
		return nil, "", fmt.Errorf("reading the secrets configuration of stack %s: %w", stack, err)
	}
	return openStored(stack, data, opts)
}

// openStored opens the stored configuration data. A passphrase's salt
// line is handed to opts.Salt, to be committed with the next write of
// the file (a stack whose salt was only in the store, or one another
// command created).
func openStored(stack string, data []byte, opts Options) (*Crypter, string, error) {
	var cfg config
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, "", fmt.Errorf("the secrets configuration of stack %s is damaged (%v); restore it from a backup, or secrets stored in the stack cannot be read", stack, err)
	}
	if cfg.Next != nil {
		return openPending(stack, &cfg, opts)
	}
	c, warning, err := open(stack, &cfg, opts)
	if err == nil && cfg.Passphrase != nil && opts.Salt != nil {
		opts.Salt.SetSalt(cfg.Passphrase.line())
	}
	return c, warning, err
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
		warning := ""
		if opts.Passphrase != "" {
			warning = fmt.Sprintf("%s is set, but the secrets of stack %s are encrypted with a generated key stored under .plinth, so the passphrase is not used. "+
				"To protect them with the passphrase instead, run `plinth stack change-secrets-provider passphrase --stack %s`.", PassphraseEnv, stack, stack)
		}
		return c, warning, nil
	case cfg.Passphrase != nil:
		return openPassphrase(stack, cfg.Passphrase, opts)
	}
	return nil, "", fmt.Errorf("the secrets configuration of stack %s holds neither a key nor a passphrase salt; restore it from a backup", stack)
}

func passphraseRequired(stack string) error {
	return fmt.Errorf("%w: the secrets of stack %s are protected by a passphrase: set %s to it", ErrPassphraseRequired, stack, PassphraseEnv)
}

func openPassphrase(stack string, p *passphraseConfig, opts Options) (*Crypter, string, error) {
	if opts.Passphrase == "" {
		return nil, "", passphraseRequired(stack)
	}
	if c := opts.kept(p); c != nil {
		return c, "", nil
	}
	c, err := opts.derived(stack, p)
	return c, "", err
}

// kept returns the Crypter of the key opts.Keys keeps for p and the
// passphrase, if it has one that opens p's check value.
func (opts Options) kept(p *passphraseConfig) *Crypter {
	if opts.Keys == nil {
		return nil
	}
	key, ok := opts.Keys.Key(p.Salt, p.KDF, opts.Passphrase)
	if !ok {
		return nil
	}
	c, err := checked(key, p)
	clear(key)
	if err != nil {
		return nil
	}
	return c
}

// derived derives the key of the passphrase for p, checks it, and hands
// it to opts.Keys.
func (opts Options) derived(stack string, p *passphraseConfig) (*Crypter, error) {
	key := opts.deriveKey(p.Salt, p.KDF)
	c, err := checked(key, p)
	if err != nil {
		return nil, fmt.Errorf("%w: the passphrase in %s does not decrypt the secrets of stack %s; set it to the passphrase the stack was created with (nothing was changed)", ErrWrongPassphrase, PassphraseEnv, stack)
	}
	if opts.Keys != nil {
		opts.Keys.Keep(p.Salt, p.KDF, opts.Passphrase, key)
	}
	return c, nil
}

// checked returns the Crypter of key if key opens p's check value.
func checked(key []byte, p *passphraseConfig) (*Crypter, error) {
	c, err := NewCrypter(key)
	if err != nil {
		return nil, err
	}
	got, err := c.Open(p.Check)
	if err != nil || subtle.ConstantTimeCompare(got, []byte(checkText)) != 1 {
		return nil, ErrDamaged
	}
	return c, nil
}

// deriveKey derives the key of opts.Passphrase with argon2id: the one
// expensive step of opening a stack's secrets.
func (opts Options) deriveKey(salt []byte, p KDFParams) []byte {
	if opts.OnDerive != nil {
		opts.OnDerive()
	}
	if p.Threads > 1 {
		// argon2 allocates Memory KiB in one piece; a page more
		// leaves room for the runtime's rounding.
		warmHeap(int(p.Memory)*1024 + os.Getpagesize())
	}
	return argon2.IDKey([]byte(opts.Passphrase), salt, p.Time, p.Memory, p.Threads, KeySize)
}

func create(ctx context.Context, store ConfigStore, stack string, opts Options) (*Crypter, string, error) {
	if err := refuseNewKey(stack, opts); err != nil {
		return nil, "", err
	}
	if opts.ReadOnly {
		return nil, "", fmt.Errorf("%w: stack %s", ErrNotConfigured, stack)
	}
	if opts.Background && opts.Passphrase != "" {
		return createLater(ctx, store, stack, opts), "", nil
	}
	cfg, c, warning, err := newConfig(stack, opts)
	if err != nil {
		return nil, "", err
	}
	return storeNew(ctx, store, stack, opts, cfg, c, warning)
}

// createLater is create for a new passphrase stack with
// Options.Background. The key is derived, its check value sealed and
// the configuration stored in a goroutine; the returned Crypter is Fresh
// and ready once all that is done, so nothing is sealed with its key
// before the check value that guards it is stored. Any passphrase opens
// a new stack, so the only error Verify can give is the store's.
func createLater(ctx context.Context, store ConfigStore, stack string, opts Options) *Crypter {
	// The store is written even if the command is interrupted meanwhile,
	// as a synchronous create would have written it before anything.
	ctx = context.WithoutCancel(ctx)
	c := deriveLater(func() (*Crypter, error) {
		cfg, c, _, err := newConfig(stack, opts)
		if err != nil {
			return nil, err
		}
		c, _, err = storeNew(ctx, store, stack, opts, cfg, c, "")
		return c, err
	})
	c.fresh = true
	return c
}

// storeNew stores cfg, a new configuration whose Crypter is c, unless
// the stack has one already: another command may have created it since
// Open found none (two first updates of a stack at once). It returns
// the Crypter of the configuration stored, and hands a passphrase's salt
// line to opts.Salt: cfg's and c, with warning, if cfg was stored; else
// the other command's, opened as Open would (its passphrase checked),
// since values it seals with its key must open with ours.
func storeNew(ctx context.Context, store ConfigStore, stack string, opts Options, cfg *config, c *Crypter, warning string) (*Crypter, string, error) {
	data, err := json.Marshal(cfg)
	if err != nil {
		return nil, "", fmt.Errorf("encoding the secrets configuration: %w", err)
	}
	created, existing, err := store.CreateSecretsConfig(ctx, stack, data)
	if err != nil {
		return nil, "", fmt.Errorf("storing the secrets configuration of stack %s: %w", stack, err)
	}
	if !created {
		c, warning, err := openStored(stack, existing, opts)
		if err != nil {
			return nil, "", fmt.Errorf("another plinth command created the secrets configuration of stack %s at the same time as this one, and this one cannot use it: %w", stack, err)
		}
		return c, warning, nil
	}
	if cfg.Passphrase != nil && opts.Salt != nil {
		opts.Salt.SetSalt(cfg.Passphrase.line())
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
	key := opts.deriveKey(p.Salt, kdf)
	c, err := NewCrypter(key)
	if err != nil {
		return nil, nil, "", err
	}
	p.Check, _ = c.Seal([]byte(checkText))
	if opts.Keys != nil {
		opts.Keys.Keep(p.Salt, kdf, opts.Passphrase, key)
	}
	return &config{Version: 1, Passphrase: p}, c, "", nil
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails; it crashes the program instead
	return b
}

// ErrKeyMissing is returned (wrapped) by Open when a stack has no secrets
// configuration but values sealed with its key exist.
var ErrKeyMissing error = &sentinel{msg: "the stack's secrets key is missing", summary: "Secrets key missing"}

// refuseNewKey returns an error if values sealed with the stack's key
// exist: a new key could not open them, and config would mix two keys.
func refuseNewKey(stack string, opts Options) error {
	if opts.Sealed == nil {
		return nil
	}
	places, err := opts.Sealed()
	if err != nil {
		return err
	}
	if len(places) == 0 {
		return nil
	}
	return fmt.Errorf("%w: stack %s has no secrets configuration (.plinth/stacks/%s/secrets.json is missing and its config file has no encryptionsalt), "+
		"but %s hold values encrypted with its key, so plinth will not make a new one. To recover: restore .plinth/stacks/%s/secrets.json from a backup; "+
		"or, if the stack used a passphrase, restore the encryptionsalt line of its config file from version control and set %s. "+
		"If the key is lost for good, remove the secure config values (`plinth config rm KEY`) and set them again; secrets in the state cannot be recovered",
		ErrKeyMissing, stack, stack, strings.Join(places, " and "), stack, PassphraseEnv)
}

// line is the passphrase configuration as one committed line:
// v1:argon2id:TIME:MEMORY:THREADS:SALT:CHECK.
func (p *passphraseConfig) line() string {
	return fmt.Sprintf("v1:argon2id:%d:%d:%d:%s:%s", p.KDF.Time, p.KDF.Memory, p.KDF.Threads,
		base64.StdEncoding.EncodeToString(p.Salt), p.Check)
}

func parseSaltLine(line string) (*passphraseConfig, error) {
	f := strings.SplitN(strings.TrimSpace(line), ":", 7)
	if len(f) != 7 || f[0] != "v1" || f[1] != "argon2id" {
		return nil, errors.New("it is not of the form v1:argon2id:TIME:MEMORY:THREADS:SALT:CHECK")
	}
	var p passphraseConfig
	var err error
	var n [3]uint64
	for i := range n {
		if n[i], err = strconv.ParseUint(f[2+i], 10, 32); err != nil {
			return nil, fmt.Errorf("field %d: %w", 3+i, err)
		}
	}
	if n[2] == 0 || n[2] > 255 || n[0] == 0 {
		return nil, errors.New("its cost parameters are out of range")
	}
	p.KDF = KDFParams{Time: uint32(n[0]), Memory: uint32(n[1]), Threads: uint8(n[2])}
	if p.Salt, err = base64.StdEncoding.DecodeString(f[5]); err != nil || len(p.Salt) < 8 {
		return nil, errors.New("its salt is not valid base64 of at least 8 bytes")
	}
	p.Check = f[6]
	return &p, nil
}

// openPending opens a configuration with a change of provider in
// progress: either key opens, the next one seals.
func openPending(stack string, cfg *config, opts Options) (*Crypter, string, error) {
	cur := *cfg
	cur.Next = nil
	old, _, oerr := open(stack, &cur, opts)
	next, _, nerr := open(stack, cfg.Next, opts)
	warning := fmt.Sprintf("a change of the secrets provider of stack %s did not finish; run `plinth stack change-secrets-provider` again to finish it", stack)
	switch {
	case oerr == nil && nerr == nil:
		return next.with(old), warning, nil
	case nerr == nil:
		return next, warning, nil
	case oerr == nil:
		return old, warning, nil
	}
	return nil, "", oerr
}
