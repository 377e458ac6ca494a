package pulumistate

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Pulumi's passphrase secrets provider: a 32-byte key from PBKDF2-SHA256
// (1,000,000 iterations) of the passphrase and a salt; each value sealed
// with AES-256-GCM as "v1:<base64 nonce>:<base64 ciphertext and tag>". Its
// state is {"salt": "v1:<base64 salt>:<the word pulumi, sealed>"}, which
// tells a wrong passphrase from a right one.
const (
	passphraseIterations = 1_000_000
	passphraseCheck      = "pulumi"
)

// Passphrase is a state.Crypter for Pulumi's passphrase secrets provider.
type Passphrase struct {
	aead cipher.AEAD
	salt string
	// State is the provider's state to write in a deployment.
	State json.RawMessage
}

// OpenPassphrase opens the secrets of a deployment whose secrets provider
// state is given, with the passphrase. A wrong passphrase is an error.
func OpenPassphrase(state json.RawMessage, phrase string) (*Passphrase, error) {
	var s struct {
		Salt string `json:"salt"`
	}
	if err := json.Unmarshal(state, &s); err != nil || s.Salt == "" {
		return nil, errors.New("the passphrase secrets provider's state has no salt")
	}
	p, err := OpenPassphraseSalt(s.Salt, phrase)
	if errors.Is(err, ErrWrongPassphrase) {
		return nil, errors.New("PULUMI_CONFIG_PASSPHRASE is not the passphrase the deployment's secrets were encrypted with")
	}
	if err != nil {
		return nil, err
	}
	p.State = state
	return p, nil
}

// ErrWrongPassphrase is returned by OpenPassphraseSalt when the salt's
// check value does not open with the passphrase.
var ErrWrongPassphrase = errors.New("the passphrase does not open the salt's check value")

// OpenPassphraseSalt opens the provider from its salt line alone,
// "v1:SALT:CHECK": the encryptionsalt of a Pulumi.<stack>.yaml, or the
// salt in a deployment's provider state. A wrong passphrase is
// ErrWrongPassphrase.
func OpenPassphraseSalt(line, phrase string) (*Passphrase, error) {
	parts := strings.SplitN(line, ":", 3)
	if len(parts) != 3 || parts[0] != "v1" {
		return nil, errors.New("the passphrase secrets provider's salt is not of the form v1:SALT:CHECK")
	}
	salt, err := base64.StdEncoding.DecodeString(parts[1])
	if err != nil {
		return nil, fmt.Errorf("the passphrase secrets provider's salt is not base64: %v", err)
	}
	p, err := newPassphrase(phrase, salt)
	if err != nil {
		return nil, err
	}
	if check, err := p.Open(parts[2]); err != nil || string(check) != passphraseCheck {
		return nil, ErrWrongPassphrase
	}
	p.salt = line
	p.State, _ = json.Marshal(map[string]string{"salt": line})
	return p, nil
}

// NewPassphrase makes a passphrase secrets provider with a new salt.
func NewPassphrase(phrase string) (*Passphrase, error) {
	salt := make([]byte, 8)
	_, _ = rand.Read(salt)
	p, err := newPassphrase(phrase, salt)
	if err != nil {
		return nil, err
	}
	check, err := p.Seal([]byte(passphraseCheck))
	if err != nil {
		return nil, err
	}
	p.salt = "v1:" + base64.StdEncoding.EncodeToString(salt) + ":" + check
	p.State, _ = json.Marshal(map[string]string{"salt": p.salt})
	return p, nil
}

// Salt is the provider's salt line, v1:SALT:CHECK, as Pulumi writes it
// to a stack config file's encryptionsalt.
func (p *Passphrase) Salt() string { return p.salt }

func newPassphrase(phrase string, salt []byte) (*Passphrase, error) {
	key, err := pbkdf2.Key(sha256.New, phrase, salt, passphraseIterations, 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Passphrase{aead: aead}, nil
}

// Seal implements state.Crypter.
func (p *Passphrase) Seal(plain []byte) (string, error) {
	nonce := make([]byte, p.aead.NonceSize())
	_, _ = rand.Read(nonce)
	ct := p.aead.Seal(nil, nonce, plain, nil)
	return "v1:" + base64.StdEncoding.EncodeToString(nonce) + ":" + base64.StdEncoding.EncodeToString(ct), nil
}

// Open implements state.Crypter.
func (p *Passphrase) Open(sealed string) ([]byte, error) {
	parts := strings.Split(sealed, ":")
	if len(parts) != 3 || parts[0] != "v1" {
		return nil, errors.New("a secret is not of the form v1:NONCE:CIPHERTEXT")
	}
	nonce, err1 := base64.StdEncoding.DecodeString(parts[1])
	ct, err2 := base64.StdEncoding.DecodeString(parts[2])
	if err1 != nil || err2 != nil || len(nonce) != p.aead.NonceSize() {
		return nil, errors.New("a secret's nonce or ciphertext is malformed")
	}
	plain, err := p.aead.Open(nil, nonce, ct, nil)
	if err != nil {
		return nil, errors.New("a secret does not open with this passphrase")
	}
	return plain, nil
}
