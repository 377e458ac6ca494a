package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state/pulumistate"
)

// A Pulumi program's stack config is Pulumi.<stack>.yaml, as the pulumi
// CLI reads and writes it: keys in the project's namespace, and secure
// values sealed by Pulumi's passphrase secrets provider under the file's
// encryptionsalt (v1:SALT:CHECK), so that a file `pulumi config set
// --secret` wrote opens in plinth and the reverse. The passphrase is
// PULUMI_CONFIG_PASSPHRASE, else PLINTH_PASSPHRASE (one passphrase for
// both, for a user who keeps only plinth's variable).
//
// A Pulumi.<stack>.yaml with no encryptionsalt may hold values an earlier
// plinth sealed with the stack's own key; those still open with it, and
// while any is there new secrets are sealed the same way (one file, one
// key). plinth.<stack>.yaml, where earlier plinth wrote a Pulumi
// program's config, is still read, and its values still win.

// pulumiPassphrase returns the passphrase for Pulumi.<stack>.yaml's
// secrets and the variable it came from; "" if neither is set.
func (a *app) pulumiPassphrase() (phrase, from string) {
	for _, v := range []string{pulumiPassphraseEnv, secrets.PassphraseEnv} {
		if p := a.env.getenv(v); p != "" {
			return p, v
		}
	}
	return "", ""
}

// pulumiConfigFile reads the stack's Pulumi.<stack>.yaml.
func (w *workspace) pulumiConfigFile() (*stackConfig, error) {
	name := "Pulumi." + w.stack + ".yaml"
	c, err := readStackConfig(filepath.Join(w.dir, name), filepath.Join(w.arg, name))
	if c != nil {
		c.inPlace = true // keep what pulumi and people wrote: order, comments
		c.beforeWrite = w.a.env.BeforeConfigWrite
	}
	return c, err
}

// pulumiSecrets seals and opens the secure values of a Pulumi.<stack>.yaml.
// It decides how at first use, so that a file without secrets needs no
// passphrase, and a salt is made only to seal the file's first secret.
type pulumiSecrets struct {
	file  *stackConfig
	stack string
	// passphrase is the passphrase and the variable it came from.
	passphrase func() (phrase, from string)
	// plinthKey opens the stack's own key, for a file an earlier plinth
	// sealed values in.
	plinthKey func() (cipher, error)
	c         cipher
	err       error
}

var _ cipher = (*pulumiSecrets)(nil)

func (w *workspace) pulumiSecrets(file *stackConfig, plinthKey func() (cipher, error)) *pulumiSecrets {
	return &pulumiSecrets{file: file, stack: w.stack, passphrase: w.a.pulumiPassphrase, plinthKey: plinthKey}
}

// Seal implements cipher.
func (s *pulumiSecrets) Seal(plain []byte) (string, error) {
	c, err := s.open(true)
	if err != nil {
		return "", err
	}
	return c.Seal(plain)
}

// Open implements cipher.
func (s *pulumiSecrets) Open(sealed string) ([]byte, error) {
	c, err := s.open(false)
	if err != nil {
		return nil, err
	}
	return c.Open(sealed)
}

func (s *pulumiSecrets) open(sealing bool) (cipher, error) {
	if s.c == nil && s.err == nil {
		s.c, s.err = s.choose(sealing)
	}
	return s.c, s.err
}

// choose picks the cipher: Pulumi's provider under the file's salt, a new
// salt for a file's first secret when there is a passphrase, else the
// stack's own key.
func (s *pulumiSecrets) choose(sealing bool) (cipher, error) {
	phrase, from := s.passphrase()
	switch {
	case s.file.Salt() != "":
		return s.openSalt(phrase, from)
	case sealing && phrase != "" && len(s.file.sealed()) == 0:
		p, err := pulumistate.NewPassphrase(phrase)
		if err != nil {
			return nil, fmt.Errorf("making a passphrase salt for %s: %w", s.file.shown, err)
		}
		s.file.SetSalt(p.Salt())
		return p, nil
	}
	return s.plinthKey()
}

// openSalt opens Pulumi's passphrase provider under the file's salt.
func (s *pulumiSecrets) openSalt(phrase, from string) (cipher, error) {
	salt := s.file.Salt()
	if strings.HasPrefix(salt, "v1:argon2id:") {
		return nil, s.file.invalid(0, 0, "Its encryptionsalt is plinth's (argon2id), which the pulumi CLI cannot read; plinth keeps its own salt in plinth.%s.yaml. Move the line there.", s.stack)
	}
	if phrase == "" {
		return nil, &display.Error{Summary: "Passphrase needed", Where: s.file.shown, Detail: fmt.Sprintf(
			"The secure values of %s are sealed with Pulumi's passphrase secrets provider. Set %s (or %s) to the passphrase `pulumi config` uses for stack %s.",
			s.file.shown, pulumiPassphraseEnv, secrets.PassphraseEnv, s.stack)}
	}
	p, err := pulumistate.OpenPassphraseSalt(salt, phrase)
	if errors.Is(err, pulumistate.ErrWrongPassphrase) {
		return nil, &display.Error{Summary: "Wrong passphrase", Where: s.file.shown, Detail: fmt.Sprintf(
			"%s is not the passphrase the secure values of %s were sealed with: the file's encryptionsalt does not open with it. Set %s to the passphrase `pulumi config` uses for stack %s; nothing was changed.",
			from, s.file.shown, from, s.stack)}
	}
	if err != nil {
		return nil, s.file.invalid(0, 0, "Its encryptionsalt is damaged (%v); restore the line from version control.", err)
	}
	return p, nil
}

// lazyCipher is a cipher opened at first use.
type lazyCipher struct {
	open func() (cipher, error)
	c    cipher
	err  error
}

var _ cipher = (*lazyCipher)(nil)

func (l *lazyCipher) get() (cipher, error) {
	if l.c == nil && l.err == nil {
		l.c, l.err = l.open()
	}
	return l.c, l.err
}

// Seal implements cipher.
func (l *lazyCipher) Seal(plain []byte) (string, error) {
	c, err := l.get()
	if err != nil {
		return "", err
	}
	return c.Seal(plain)
}

// Open implements cipher.
func (l *lazyCipher) Open(sealed string) ([]byte, error) {
	c, err := l.get()
	if err != nil {
		return nil, err
	}
	return c.Open(sealed)
}
