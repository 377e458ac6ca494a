package resource

import (
	"fmt"
	"strconv"
	"strings"
)

// PropertyPath addresses a value inside an object: each element is a string
// (a property name), an int (an array index) or Wildcard. Its text form is
// the guide's: a.b[0]["key.with.dots"], with * or [*] as a wildcard.
type PropertyPath []any

// Wildcard matches any property or index.
type Wildcard struct{}

// ParsePath parses the text form of a property path.
func ParsePath(s string) (PropertyPath, error) {
	p := pathParser{s: s}
	return p.parse()
}

// MustParsePath is ParsePath for literals in code; it panics on error.
func MustParsePath(s string) PropertyPath {
	p, err := ParsePath(s)
	if err != nil {
		panic(err)
	}
	return p
}

type pathParser struct {
	s   string
	pos int
}

func (p *pathParser) fail(format string, args ...any) error {
	return fmt.Errorf("invalid property path %q at offset %d: %s", p.s, p.pos, fmt.Sprintf(format, args...))
}

func (p *pathParser) parse() (PropertyPath, error) {
	if p.s == "" {
		return nil, p.fail("the path is empty")
	}
	var path PropertyPath
	for p.pos < len(p.s) {
		var err error
		switch c := p.s[p.pos]; {
		case c == '[':
			path, err = p.bracket(path)
		case c == '.' && len(path) > 0:
			p.pos++
			path, err = p.name(path)
		case len(path) == 0:
			path, err = p.name(path)
		default:
			err = p.fail("expected '.' or '[', found %q", c)
		}
		if err != nil {
			return nil, err
		}
	}
	return path, nil
}

// name reads a bare property name or * up to the next '.' or '['.
func (p *pathParser) name(path PropertyPath) (PropertyPath, error) {
	end := p.pos
	for end < len(p.s) && p.s[end] != '.' && p.s[end] != '[' {
		end++
	}
	if end == p.pos {
		return nil, p.fail("expected a property name")
	}
	n := p.s[p.pos:end]
	if strings.ContainsAny(n, `]"`) {
		return nil, p.fail("a bare property name cannot hold ']' or '\"'; quote it as [\"...\"]")
	}
	p.pos = end
	if n == "*" {
		return append(path, Wildcard{}), nil
	}
	return append(path, n), nil
}

// bracket reads [N], [*] or ["quoted key"].
func (p *pathParser) bracket(path PropertyPath) (PropertyPath, error) {
	p.pos++ // '['
	rest := p.s[p.pos:]
	switch {
	case strings.HasPrefix(rest, "*]"):
		p.pos += 2
		return append(path, Wildcard{}), nil
	case strings.HasPrefix(rest, `"`):
		key, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return nil, p.fail("unterminated or malformed quoted key")
		}
		p.pos += len(key)
		if p.pos >= len(p.s) || p.s[p.pos] != ']' {
			return nil, p.fail("expected ']' after the quoted key")
		}
		p.pos++
		k, _ := strconv.Unquote(key)
		return append(path, k), nil
	}
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return nil, p.fail("missing ']'")
	}
	n, err := strconv.Atoi(rest[:end])
	if err != nil || n < 0 || strconv.Itoa(n) != rest[:end] {
		return nil, p.fail("%q is not an array index (write a key as [\"%s\"])", rest[:end], rest[:end])
	}
	p.pos += end + 1
	return append(path, n), nil
}

// String formats the path so that ParsePath gives it back.
func (p PropertyPath) String() string {
	var b strings.Builder
	for i, e := range p {
		switch e := e.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", e)
		case Wildcard:
			b.WriteString("[*]")
		case string:
			if isSimpleKey(e) {
				if i > 0 {
					b.WriteByte('.')
				}
				b.WriteString(e)
			} else {
				b.WriteString("[" + strconv.Quote(e) + "]")
			}
		}
	}
	return b.String()
}

// isSimpleKey reports whether a key can be written bare: a name of letters,
// digits, '_' and '$' that does not start with a digit.
func isSimpleKey(k string) bool {
	if k == "" {
		return false
	}
	for i, r := range k {
		alpha := r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !alpha && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// Get returns the value at the path inside v. Wildcards are not followed.
// A value reached through a secret is secret: if any object or array on
// the way was marked secret, the result is too, so that nothing nested in
// a secret map or list can be shown or sent by looking it up by path.
func (p PropertyPath) Get(v Value) (Value, bool) {
	w, secret, ok := p.get(v)
	if ok && secret {
		w = MakeSecret(w)
	}
	return w, ok
}

// get is Get without the mark: the value at the path with any secret mark
// of its own, and whether a secret was passed through on the way.
func (p PropertyPath) get(v Value) (Value, bool, bool) {
	secret := false
	for _, e := range p {
		if v.IsSecret() {
			secret, v = true, v.SecretElement()
		}
		switch e := e.(type) {
		case string:
			w, ok := v.Object()[e]
			if !ok {
				return Value{}, false, false
			}
			v = w
		case int:
			a := v.Array()
			if e >= len(a) {
				return Value{}, false, false
			}
			v = a[e]
		default:
			return Value{}, false, false
		}
	}
	return v, secret, true
}

// Set returns a copy of root with the value at the path replaced by nv,
// creating objects for missing properties. It reports false if the path runs
// through something that is not an object or array, or past an array's end.
// Secrets along the way stay secret.
func (p PropertyPath) Set(root, nv Value) (Value, bool) {
	if len(p) == 0 {
		return nv, true
	}
	if root.IsSecret() {
		inner, ok := p.Set(root.SecretElement(), nv)
		return MakeSecret(inner), ok
	}
	switch e := p[0].(type) {
	case string:
		if root.Kind() != ObjectKind && !root.IsNull() {
			return root, false
		}
		o := root.Object().Copy()
		if o == nil {
			o = Object{}
		}
		child, ok := p[1:].Set(o[e], nv)
		o[e] = child
		return NewObject(o), ok
	case int:
		a := root.Array()
		if e >= len(a) {
			return root, false
		}
		c := append([]Value(nil), a...)
		child, ok := p[1:].Set(c[e], nv)
		c[e] = child
		return NewArray(c...), ok
	}
	return root, false
}

// Delete returns a copy of root without the property at the path. Deleting
// an array element sets it to null, keeping later indices stable.
func (p PropertyPath) Delete(root Value) (Value, bool) {
	if len(p) == 0 {
		return root, false
	}
	if len(p) > 1 {
		// The child keeps its own marks; Set below re-wraps the secrets
		// it passes through, so the result is not marked twice.
		child, _, ok := p[:len(p)-1].get(root)
		if !ok {
			return root, false
		}
		next, ok := p[len(p)-1:].Delete(child)
		if !ok {
			return root, false
		}
		return p[:len(p)-1].Set(root, next)
	}
	if root.IsSecret() {
		inner, ok := p.Delete(root.SecretElement())
		return MakeSecret(inner), ok
	}
	switch e := p[0].(type) {
	case string:
		if _, ok := root.Object()[e]; !ok {
			return root, false
		}
		o := root.Object().Copy()
		delete(o, e)
		return NewObject(o), true
	case int:
		return p.Set(root, Null())
	}
	return root, false
}

// Contains reports whether q lies at or under p, wildcards in p matching any
// element of q.
func (p PropertyPath) Contains(q PropertyPath) bool {
	if len(q) < len(p) {
		return false
	}
	for i, e := range p {
		if _, ok := e.(Wildcard); ok {
			continue
		}
		if e != q[i] {
			return false
		}
	}
	return true
}
