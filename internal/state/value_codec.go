package state

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Values are stored in Pulumi's JSON conventions: null, bool, number,
// string, array and object as plain JSON (numbers with every digit they
// hold), and the other kinds as objects tagged with the signature key.
const (
	sigKey       = "4dabf18193072939515e22adb298388d"
	sigSecret    = "1b47061264138c4ac30d75fd1eb44270"
	sigAsset     = "c44067f5952c0a294b673a41bacd8c17"
	sigArchive   = "0def7320c3a5731c473e5ecbe6d01bc7"
	sigReference = "5cf8f73096256a8f31e491e813e4eb8e"
)

// Crypter seals and opens secret values. The codec hands it the JSON of a
// secret's element and stores what Seal returns; nothing else about a
// secret reaches storage. The secrets package implements it.
type Crypter interface {
	Seal(plaintext []byte) (ciphertext string, err error)
	Open(ciphertext string) (plaintext []byte, err error)
}

// ValueError is an error encoding or decoding the value at a property path.
type ValueError struct {
	Path resource.PropertyPath
	Err  error
}

func (e *ValueError) Error() string {
	if len(e.Path) == 0 {
		return e.Err.Error()
	}
	return fmt.Sprintf("property %s: %v", e.Path, e.Err)
}

func (e *ValueError) Unwrap() error { return e.Err }

// ErrUnknownValue is reported (inside a ValueError) for an unknown value:
// unknowns exist only during a preview and are never stored.
var ErrUnknownValue = errors.New("the value is unknown; unknown values exist only during a preview and cannot be stored")

// errAt prefixes err's path with key (a string or an int).
func errAt(key any, err error) error {
	var ve *ValueError
	if errors.As(err, &ve) {
		return &ValueError{Path: append(resource.PropertyPath{key}, ve.Path...), Err: ve.Err}
	}
	return &ValueError{Path: resource.PropertyPath{key}, Err: err}
}

// valueEncoder appends values as JSON.
type valueEncoder struct {
	crypter Crypter
}

func (enc *valueEncoder) object(b []byte, o resource.Object) ([]byte, error) {
	if o == nil {
		return append(b, "null"...), nil
	}
	keys := o.Keys()
	b = append(b, '{')
	for i, k := range keys {
		if k == sigKey {
			return nil, errAt(k, errors.New("the property name is reserved for plinth's own use"))
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		var err error
		if b, err = enc.value(b, o[k]); err != nil {
			return nil, errAt(k, err)
		}
	}
	return append(b, '}'), nil
}

func (enc *valueEncoder) value(b []byte, v resource.Value) ([]byte, error) {
	switch v.Kind() {
	case resource.NullKind:
		return append(b, "null"...), nil
	case resource.BoolKind:
		return strconv.AppendBool(b, v.Bool()), nil
	case resource.NumberKind:
		return appendNumber(b, v)
	case resource.StringKind:
		return appendString(b, v.Str()), nil
	case resource.ArrayKind:
		return enc.array(b, v.Array())
	case resource.ObjectKind:
		return enc.object(b, v.Object())
	case resource.AssetKind:
		return appendAsset(b, v.Asset()), nil
	case resource.ArchiveKind:
		return enc.archive(b, v.Archive())
	case resource.ReferenceKind:
		return enc.reference(b, v.Reference())
	case resource.SecretKind:
		return enc.secret(b, v.SecretElement())
	case resource.UnknownKind:
		return nil, &ValueError{Err: ErrUnknownValue}
	}
	return nil, &ValueError{Err: fmt.Errorf("a value of kind %s cannot be stored", v.Kind())}
}

func (enc *valueEncoder) array(b []byte, elems []resource.Value) ([]byte, error) {
	b = append(b, '[')
	for i, e := range elems {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = enc.value(b, e); err != nil {
			return nil, errAt(i, err)
		}
	}
	return append(b, ']'), nil
}

// appendNumber writes a number with every digit it holds. A literal kept
// from ParseNumber is written as is when it is valid JSON, else in the
// shortest form that keeps its value.
func appendNumber(b []byte, v resource.Value) ([]byte, error) {
	if lit := v.NumberLiteral(); isJSONNumber(lit) {
		return append(b, lit...), nil
	}
	if !math.IsNaN(v.Number()) {
		if f := v.BigNumber(); !f.IsInf() {
			if t := f.Text('g', -1); isJSONNumber(t) {
				return append(b, t...), nil
			}
		}
	}
	return nil, &ValueError{Err: fmt.Errorf("the number %s is not finite and cannot be stored", v.NumberLiteral())}
}

func appendSig(b []byte, sig string) []byte {
	b = append(b, `{"`+sigKey+`":"`...)
	b = append(b, sig...)
	return append(b, '"')
}

// appendField appends ,"name":"s" if s is not empty.
func appendField(b []byte, name, s string) []byte {
	if s == "" {
		return b
	}
	b = append(b, ',')
	b = appendString(b, name)
	b = append(b, ':')
	return appendString(b, s)
}

func appendAsset(b []byte, a *resource.Asset) []byte {
	b = appendSig(b, sigAsset)
	b = appendField(b, "hash", a.Hash)
	b = appendField(b, "text", a.Text)
	b = appendField(b, "path", a.Path)
	b = appendField(b, "uri", a.URI)
	return append(b, '}')
}

func (enc *valueEncoder) archive(b []byte, a *resource.Archive) ([]byte, error) {
	b = appendSig(b, sigArchive)
	b = appendField(b, "hash", a.Hash)
	if a.Assets != nil {
		b = append(b, `,"assets":`...)
		var err error
		if b, err = enc.object(b, a.Assets); err != nil {
			return nil, err
		}
	}
	b = appendField(b, "path", a.Path)
	b = appendField(b, "uri", a.URI)
	return append(b, '}'), nil
}

func (enc *valueEncoder) reference(b []byte, r resource.Reference) ([]byte, error) {
	b = appendSig(b, sigReference)
	b = appendField(b, "urn", string(r.URN))
	if r.ID != nil {
		if r.ID.IsUnknown() {
			return nil, &ValueError{Err: fmt.Errorf("the ID of the reference to %s: %w", r.URN, ErrUnknownValue)}
		}
		b = append(b, `,"id":`...)
		var err error
		if b, err = enc.value(b, *r.ID); err != nil {
			return nil, err
		}
	}
	b = appendField(b, "packageVersion", r.PackageVersion)
	return append(b, '}'), nil
}

func (enc *valueEncoder) secret(b []byte, elem resource.Value) ([]byte, error) {
	if enc.crypter == nil {
		return nil, &ValueError{Err: errors.New("the value is secret and no secrets key is configured to encrypt it")}
	}
	plain, err := enc.value(nil, elem)
	if err != nil {
		return nil, err
	}
	ct, err := enc.crypter.Seal(plain)
	clear(plain)
	if err != nil {
		return nil, &ValueError{Err: fmt.Errorf("encrypting a secret: %w", err)}
	}
	b = appendSig(b, sigSecret)
	return append(appendField(b, "ciphertext", ct), '}'), nil
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD, as
// with encoding/json.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			b = appendEscape(b, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			if r == utf8.RuneError {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, `\u202`...)
				b = append(b, hexDigits[r&0xf])
			}
			start = i + size
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// isJSONNumber reports whether s is a number in JSON's grammar.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = skipDigits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		if j := skipDigits(s, i+1); j > i+1 {
			i = j
		} else {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := skipDigits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
