package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
	"unique"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// ErrCannotDecrypt is reported (wrapped) for a secret that cannot be
// opened: no key was given, or the key is not the stack's. The stored data
// is not damaged; the key is the problem.
var ErrCannotDecrypt error = &summarised{msg: "cannot decrypt a secret", summary: "Cannot decrypt secrets"}

// maxDepth bounds the nesting of stored values, so hostile input cannot
// exhaust the stack.
const maxDepth = 1000

// valueDecoder parses one JSON value into a resource.Value. The input has
// usually been checked by encoding/json already, but the parser does not
// rely on it: any malformed input is an error, never a panic.
type valueDecoder struct {
	data    []byte
	pos     int
	depth   int
	crypter Crypter
}

// decodeObject decodes raw (an object or null) as a resource.Object.
func decodeObject(raw []byte, c Crypter) (resource.Object, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	v, err := decodeValue(raw, c)
	if err != nil {
		return nil, err
	}
	switch v.Kind() {
	case resource.NullKind:
		return nil, nil
	case resource.ObjectKind:
		return v.Object(), nil
	}
	return nil, &ValueError{Err: fmt.Errorf("want an object, found a %s", v.Kind())}
}

func decodeValue(raw []byte, c Crypter) (resource.Value, error) {
	d := &valueDecoder{data: raw, crypter: c}
	v, err := d.value()
	if err != nil {
		return resource.Value{}, err
	}
	if d.skipSpace(); d.pos != len(d.data) {
		return resource.Value{}, d.fail("unexpected data after the value")
	}
	return v, nil
}

func (d *valueDecoder) fail(format string, args ...any) error {
	return &ValueError{Err: fmt.Errorf("offset %d: %s", d.pos, fmt.Sprintf(format, args...))}
}

func (d *valueDecoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *valueDecoder) value() (resource.Value, error) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return resource.Value{}, d.fail("unexpected end of data")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		s, err := d.str()
		return resource.NewString(s), err
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return d.literal()
}

func (d *valueDecoder) literal() (resource.Value, error) {
	for _, l := range [...]struct {
		text string
		v    resource.Value
	}{{"null", resource.Null()}, {"true", resource.NewBool(true)}, {"false", resource.NewBool(false)}} {
		if len(d.data)-d.pos >= len(l.text) && string(d.data[d.pos:d.pos+len(l.text)]) == l.text {
			d.pos += len(l.text)
			return l.v, nil
		}
	}
	return resource.Value{}, d.fail("invalid character %q", d.data[d.pos])
}

func (d *valueDecoder) number() (resource.Value, error) {
	start := d.pos
	for d.pos < len(d.data) && isNumberByte(d.data[d.pos]) {
		d.pos++
	}
	lit := string(d.data[start:d.pos])
	if !isJSONNumber(lit) {
		return resource.Value{}, d.fail("invalid number %q", lit)
	}
	return numberFromLiteral(lit)
}

// numberFromLiteral returns a plain double when the literal is exactly how
// a double formats itself (the encoder wrote it from one), and otherwise
// keeps the literal so that no digit is lost.
func numberFromLiteral(lit string) (resource.Value, error) {
	if f, err := strconv.ParseFloat(lit, 64); err == nil && strconv.FormatFloat(f, 'g', -1, 64) == lit {
		return resource.NewNumber(f), nil
	}
	return resource.ParseNumber(lit)
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// str parses a string token at d.pos.
func (d *valueDecoder) str() (string, error) {
	start := d.pos
	d.pos++
	plain := true
	for d.pos < len(d.data) {
		switch c := d.data[d.pos]; {
		case c == '"':
			d.pos++
			tok := d.data[start:d.pos]
			if plain && utf8.Valid(tok) {
				return string(tok[1 : len(tok)-1]), nil
			}
			var s string
			if err := json.Unmarshal(tok, &s); err != nil {
				return "", d.fail("invalid string: %v", err)
			}
			return s, nil
		case c == '\\':
			plain = false
			d.pos += 2
		case c < 0x20:
			return "", d.fail("control character in a string")
		default:
			d.pos++
		}
	}
	return "", d.fail("unterminated string")
}

func (d *valueDecoder) enter() error {
	if d.depth++; d.depth > maxDepth {
		return d.fail("values nested more than %d deep", maxDepth)
	}
	return nil
}

func (d *valueDecoder) array() (resource.Value, error) {
	if err := d.enter(); err != nil {
		return resource.Value{}, err
	}
	defer func() { d.depth-- }()
	d.pos++ // [
	elems := []resource.Value{}
	for i := 0; ; i++ {
		d.skipSpace()
		if d.pos < len(d.data) && d.data[d.pos] == ']' && i == 0 {
			d.pos++
			return resource.NewArray(elems...), nil
		}
		v, err := d.value()
		if err != nil {
			return resource.Value{}, errAt(i, err)
		}
		elems = append(elems, v)
		if done, err := d.next(']'); err != nil || done {
			return resource.NewArray(elems...), err
		}
	}
}

// next consumes a comma (false) or the closing byte (true).
func (d *valueDecoder) next(closing byte) (bool, error) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return false, d.fail("unexpected end of data")
	}
	switch d.data[d.pos] {
	case ',':
		d.pos++
		return false, nil
	case closing:
		d.pos++
		return true, nil
	}
	return false, d.fail("want ',' or %q, found %q", closing, d.data[d.pos])
}

func (d *valueDecoder) object() (resource.Value, error) {
	if err := d.enter(); err != nil {
		return resource.Value{}, err
	}
	defer func() { d.depth-- }()
	o, err := d.members()
	if err != nil {
		return resource.Value{}, err
	}
	if _, special := o[sigKey]; special {
		return d.special(o)
	}
	return resource.NewObject(o), nil
}

// maxSharedKey is the longest property name shareKey shares.
const maxSharedKey = 64

// shareKey returns the one copy of a property name that every object
// decoded with it shares (unique keeps it while any holds it): the
// resources of a stack repeat the same few names, and each decoded copy
// cost a small allocation per property for the whole command.
func shareKey(k string) string {
	if len(k) > maxSharedKey {
		return k
	}
	return unique.Make(k).Value()
}

func (d *valueDecoder) members() (resource.Object, error) {
	d.pos++ // {
	o := resource.Object{}
	for i := 0; ; i++ {
		d.skipSpace()
		if d.pos < len(d.data) && d.data[d.pos] == '}' && i == 0 {
			d.pos++
			return o, nil
		}
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, d.fail("want a property name")
		}
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		k = shareKey(k)
		if d.skipSpace(); d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.fail("want ':' after property name %q", k)
		}
		d.pos++
		v, err := d.value()
		if err != nil {
			return nil, errAt(k, err)
		}
		o[k] = v
		if done, err := d.next('}'); err != nil || done {
			return o, err
		}
	}
}

// special turns an object tagged with the signature key into the value it
// stands for.
func (d *valueDecoder) special(o resource.Object) (resource.Value, error) {
	switch sig := o[sigKey].Str(); sig {
	case sigSecret:
		return d.secret(o)
	case sigAsset:
		return resource.NewAsset(assetOf(o)), nil
	case sigArchive:
		return archiveOf(o)
	case sigReference:
		return referenceOf(o)
	default:
		return resource.Value{}, &ValueError{Err: fmt.Errorf("unknown kind of special value (signature %q)", sig)}
	}
}

func assetOf(o resource.Object) *resource.Asset {
	return &resource.Asset{Hash: o["hash"].Str(), Text: o["text"].Str(), Path: o["path"].Str(), URI: o["uri"].Str()}
}

func archiveOf(o resource.Object) (resource.Value, error) {
	a := &resource.Archive{Hash: o["hash"].Str(), Path: o["path"].Str(), URI: o["uri"].Str()}
	if members, ok := o["assets"]; ok && !members.IsNull() {
		if members.Kind() != resource.ObjectKind {
			return resource.Value{}, &ValueError{Path: resource.PropertyPath{"assets"}, Err: errors.New("an archive's assets must be an object")}
		}
		for name, m := range members.Object() {
			if k := m.Kind(); k != resource.AssetKind && k != resource.ArchiveKind {
				return resource.Value{}, &ValueError{Path: resource.PropertyPath{"assets", name}, Err: fmt.Errorf("an archive member must be an asset or archive, not a %s", k)}
			}
		}
		a.Assets = members.Object()
	}
	return resource.NewArchive(a), nil
}

func referenceOf(o resource.Object) (resource.Value, error) {
	r := resource.Reference{URN: resource.URN(o["urn"].Str()), PackageVersion: o["packageVersion"].Str()}
	if id, ok := o["id"]; ok {
		if id.IsUnknown() {
			return resource.Value{}, &ValueError{Path: resource.PropertyPath{"id"}, Err: ErrUnknownValue}
		}
		r.ID = &id
	}
	return resource.NewReference(r), nil
}

func (d *valueDecoder) secret(o resource.Object) (resource.Value, error) {
	ct := o["ciphertext"]
	if pt := o["plaintext"]; ct.Kind() != resource.StringKind && pt.Kind() == resource.StringKind {
		// Pulumi writes secrets this way in `pulumi stack export
		// --show-secrets`; plinth never does.
		return d.secretElement([]byte(pt.Str()))
	}
	if ct.Kind() != resource.StringKind {
		return resource.Value{}, &ValueError{Err: errors.New("a secret has no ciphertext")}
	}
	if d.crypter == nil {
		return resource.Value{}, &ValueError{Err: fmt.Errorf("%w: the value is secret and no secrets key is configured", ErrCannotDecrypt)}
	}
	plain, err := d.crypter.Open(ct.Str())
	if err != nil {
		return resource.Value{}, &ValueError{Err: fmt.Errorf("%w: %w", ErrCannotDecrypt, err)}
	}
	v, err := d.secretElement(plain)
	clear(plain)
	return v, err
}

// secretElement parses a secret's element from its JSON text.
func (d *valueDecoder) secretElement(plain []byte) (resource.Value, error) {
	inner := &valueDecoder{data: plain, depth: d.depth, crypter: d.crypter}
	v, err := inner.value()
	if inner.skipSpace(); err == nil && inner.pos != len(plain) {
		err = inner.fail("unexpected data after the secret's value")
	}
	if err != nil {
		return resource.Value{}, err
	}
	return resource.MakeSecret(v), nil
}
