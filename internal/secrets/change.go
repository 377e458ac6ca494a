package secrets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
)

// Changing a stack's secrets provider (key file <-> passphrase) re-seals
// every secret. So that a crash midway never leaves a value sealed with a
// key that cannot be found, the change is recorded first: the stored
// configuration holds the old provider and, under "next", the new one, and
// Open then returns a Crypter that opens values sealed with either and
// seals with the new one. Finish stores the new provider alone.

// Provider names a kind of secrets provider.
type Provider string

// The providers.
const (
	ProviderKey        Provider = "key"
	ProviderPassphrase Provider = "passphrase"
)

// Change is a change of provider in progress.
type Change struct {
	store ConfigStore
	stack string
	next  *config
	// Crypter opens values sealed with the old key or the new, and seals
	// with the new.
	Crypter *Crypter
	// Salt is the new encryptionsalt line for the stack's config file, ""
	// for a key file.
	Salt string
}

// BeginChange records a change of the stack's provider to target and
// returns the Crypter to re-seal with. opts opens the current provider;
// newPassphrase is the passphrase of a passphrase target.
func BeginChange(ctx context.Context, store ConfigStore, stack string, opts Options, target Provider, newPassphrase string) (*Change, error) {
	cur, err := currentConfig(ctx, store, stack, opts)
	if err != nil {
		return nil, err
	}
	old, _, err := open(stack, cur, opts)
	if err != nil {
		return nil, err
	}
	if cur.Next != nil {
		return resumeChange(ctx, store, stack, cur, old, opts)
	}
	if err := checkTarget(stack, cur, target, newPassphrase); err != nil {
		return nil, err
	}
	next, nc, _, err := newConfig(stack, Options{Passphrase: newPassphrase, KDF: opts.KDF, OnDerive: opts.OnDerive})
	if err != nil {
		return nil, err
	}
	pending := *cur
	pending.Next = next
	if err := writeConfig(ctx, store, stack, &pending); err != nil {
		return nil, err
	}
	ch := &Change{store: store, stack: stack, next: next, Crypter: nc.with(old)}
	if next.Passphrase != nil {
		ch.Salt = next.Passphrase.line()
	}
	return ch, nil
}

func checkTarget(stack string, cur *config, target Provider, newPassphrase string) error {
	switch {
	case target != ProviderKey && target != ProviderPassphrase:
		return fmt.Errorf("%q is not a secrets provider plinth knows: use %s or %s", target, ProviderPassphrase, ProviderKey)
	case target == ProviderKey && cur.Key != nil:
		return fmt.Errorf("the secrets of stack %s already use a generated key", stack)
	case target == ProviderPassphrase && newPassphrase == "":
		return fmt.Errorf("%w: set %s (or, to change one passphrase for another, PLINTH_NEW_PASSPHRASE) to the new passphrase", ErrPassphraseRequired, PassphraseEnv)
	case target == ProviderKey && newPassphrase != "":
		return errors.New("a passphrase was given for a generated key")
	}
	return nil
}

// currentConfig returns the stack's configuration: the committed salt if
// there is one, else the stored configuration.
func currentConfig(ctx context.Context, store ConfigStore, stack string, opts Options) (*config, error) {
	if opts.Salt != nil && opts.Salt.Salt() != "" {
		p, err := parseSaltLine(opts.Salt.Salt())
		if err != nil {
			return nil, fmt.Errorf("the encryptionsalt in %s is damaged (%v)", opts.Salt.Where(), err)
		}
		return &config{Version: 1, Passphrase: p}, nil
	}
	data, err := store.ReadSecretsConfig(ctx, stack)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: stack %s", ErrNotConfigured, stack)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the secrets configuration of stack %s: %w", stack, err)
	}
	var cfg config
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("the secrets configuration of stack %s is damaged (%v)", stack, err)
	}
	return &cfg, nil
}

// Finish stores the new provider alone: the change is complete.
func (ch *Change) Finish(ctx context.Context) error {
	return writeConfig(ctx, ch.store, ch.stack, ch.next)
}

func writeConfig(ctx context.Context, store ConfigStore, stack string, cfg *config) error {
	data, err := json.Marshal(cfg)
	if err != nil {
		return fmt.Errorf("encoding the secrets configuration: %w", err)
	}
	if err := store.WriteSecretsConfig(ctx, stack, data); err != nil {
		return fmt.Errorf("storing the secrets configuration of stack %s: %w", stack, err)
	}
	return nil
}

// pendingConfig returns the stored configuration if it records a change
// of provider in progress, else nil. It reads without deriving anything,
// so that the derivation can run later, in the background.
func pendingConfig(ctx context.Context, store ConfigStore, stack string) *config {
	data, err := store.ReadSecretsConfig(ctx, stack)
	if err != nil {
		return nil
	}
	var cfg config
	if json.Unmarshal(data, &cfg) != nil || cfg.Next == nil {
		return nil
	}
	return &cfg
}

// withPending adds the keys of a change in progress (cfg, from
// pendingConfig; nil if none) to c: values sealed with either open, and
// new values are sealed with the next key.
func withPending(stack string, cfg *config, opts Options, c *Crypter) *Crypter {
	if cfg == nil {
		return c
	}
	cur := *cfg
	cur.Next = nil
	if old, _, err := open(stack, &cur, opts); err == nil {
		c = c.with(old)
	}
	if next, _, err := open(stack, cfg.Next, opts); err == nil {
		c = next.with(c)
	}
	return c
}

// resumeChange continues a change that was interrupted, with the new key
// it recorded (values may already be sealed with it).
func resumeChange(_ context.Context, store ConfigStore, stack string, cur *config, old *Crypter, opts Options) (*Change, error) {
	next := cur.Next
	nc, _, err := open(stack, next, Options{Passphrase: opts.Passphrase, OnDerive: opts.OnDerive})
	if err != nil {
		return nil, fmt.Errorf("finishing the interrupted change of provider of stack %s: %w", stack, err)
	}
	ch := &Change{store: store, stack: stack, next: next, Crypter: nc.with(old)}
	if next.Passphrase != nil {
		ch.Salt = next.Passphrase.line()
	}
	return ch, nil
}
