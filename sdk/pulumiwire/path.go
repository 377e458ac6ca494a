package pulumiwire

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// FormatPath writes a property path as Pulumi peers read it: bare names of
// letters, digits and '_' joined by '.', other keys as ["key"] with only '"'
// escaped, indices as [N], wildcards as [*]. The quoted form cannot end in
// a backslash, so such a key is written bare; one that also holds '.' or
// '[' cannot be written at all and comes back altered.
func FormatPath(p resource.PropertyPath) string {
	var b strings.Builder
	for i, e := range p {
		switch e := e.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", e)
		case resource.Wildcard:
			b.WriteString("[*]")
		case string:
			writeKey(&b, i, e)
		}
	}
	return b.String()
}

func writeKey(b *strings.Builder, i int, k string) {
	if isBareKey(k) || (strings.HasSuffix(k, `\`) && !strings.ContainsAny(k, ".[")) {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(k)
		return
	}
	b.WriteString(`["`)
	b.WriteString(strings.ReplaceAll(k, `"`, `\"`))
	b.WriteString(`"]`)
}

func isBareKey(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		if !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// ParsePath reads a property path written by a Pulumi peer: names separated
// by '.', ["quoted keys"] (with \" for a quote), [N] indices and * or [*]
// wildcards. It is lenient where peers are sloppy: a bare name runs to the
// next '.' or '[' whatever it holds, and ".[" is accepted. The empty string
// is the empty path.
func ParsePath(s string) (resource.PropertyPath, error) {
	if strings.HasPrefix(s, ".") {
		return nil, pathError(s, 0, "a path must start with a name or an index")
	}
	var path resource.PropertyPath
	for i := 0; i < len(s); {
		var elem any
		var err error
		switch s[i] {
		case '.':
			if i++; i == len(s) {
				return nil, pathError(s, i, "a path must end with a name or an index")
			}
			continue
		case '[':
			elem, i, err = parseBracket(s, i)
		default:
			elem, i = parseName(s, i)
		}
		if err != nil {
			return nil, err
		}
		path = append(path, elem)
	}
	return path, nil
}

func parseName(s string, i int) (any, int) {
	end := i
	for end < len(s) && s[end] != '.' && s[end] != '[' {
		end++
	}
	if s[i:end] == "*" {
		return resource.Wildcard{}, end
	}
	return s[i:end], end
}

// parseBracket reads [N], [*] or ["key"] starting at the '['.
func parseBracket(s string, i int) (any, int, error) {
	if strings.HasPrefix(s[i:], `["`) {
		return parseQuoted(s, i)
	}
	end := strings.IndexByte(s[i:], ']')
	if end < 0 {
		return nil, 0, pathError(s, i, "missing ']'")
	}
	seg := s[i+1 : i+end]
	if seg == "*" {
		return resource.Wildcard{}, i + end + 1, nil
	}
	n, err := strconv.Atoi(seg)
	if err != nil || n < 0 {
		return nil, 0, pathError(s, i, fmt.Sprintf("%q is not an array index", seg))
	}
	return n, i + end + 1, nil
}

func parseQuoted(s string, start int) (any, int, error) {
	var key strings.Builder
	for i := start + 2; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '"':
			key.WriteByte('"')
			i++
		case s[i] == '"':
			if i+1 >= len(s) || s[i+1] != ']' {
				return nil, 0, pathError(s, i+1, "expected ']' after a quoted key")
			}
			return key.String(), i + 2, nil
		default:
			key.WriteByte(s[i])
		}
	}
	return nil, 0, pathError(s, start, "missing closing quote")
}

func pathError(s string, at int, reason string) error {
	return fmt.Errorf("invalid property path %q at offset %d: %s", s, at, reason)
}

// NormalizePath rewrites a path a peer sent in the canonical form, so paths
// from different providers compare equal. A path that does not parse is
// returned as it is.
func NormalizePath(s string) string {
	p, err := ParsePath(s)
	if err != nil || len(p) == 0 {
		return s
	}
	return FormatPath(p)
}
