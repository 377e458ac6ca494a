package yaml

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// ref is a ${...} reference: a root name (a resource, variable or config
// key) and an optional property path inside it.
type ref struct {
	root string
	path resource.PropertyPath
	text string // as written, with ${ and }
	at   pos
	// where names the place in the program, for diagnostics.
	where string
}

// part is a piece of an interpolated string: literal text or a reference.
type part struct {
	text string
	ref  *ref
}

// parseInterpolation splits s into text and ${...} references. "$${" is
// an escaped "${". The bracketed part of a reference may hold quoted keys
// containing "}".
func parseInterpolation(s string) ([]part, error) {
	var parts []part
	var text strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "$${"):
			text.WriteString("${")
			i += 3
		case strings.HasPrefix(s[i:], "${"):
			end, err := referenceEnd(s, i+2)
			if err != nil {
				return nil, err
			}
			r, err := parseReference(s[i+2 : end])
			if err != nil {
				return nil, err
			}
			r.text = s[i : end+1]
			if text.Len() > 0 {
				parts = append(parts, part{text: text.String()})
				text.Reset()
			}
			parts = append(parts, part{ref: r})
			i = end + 1
		default:
			text.WriteByte(s[i])
			i++
		}
	}
	if text.Len() > 0 || len(parts) == 0 {
		parts = append(parts, part{text: text.String()})
	}
	return parts, nil
}

// referenceEnd returns the index of the "}" closing a reference whose body
// starts at start, skipping quoted strings.
func referenceEnd(s string, start int) (int, error) {
	for i := start; i < len(s); i++ {
		switch s[i] {
		case '}':
			return i, nil
		case '"':
			q, err := strconv.QuotedPrefix(s[i:])
			if err != nil {
				return 0, fmt.Errorf("the quoted key at offset %d of %q is not terminated", i, s)
			}
			i += len(q) - 1
		}
	}
	return 0, fmt.Errorf("%q has a \"${\" without a closing \"}\" (write \"$${\" for a literal \"${\")", s)
}

// parseReference parses the body of ${...}: a root name up to the first '.'
// or '[', then a property path.
func parseReference(body string) (*ref, error) {
	end := strings.IndexAny(body, ".[")
	if end < 0 {
		end = len(body)
	}
	root := body[:end]
	if root == "" {
		return nil, fmt.Errorf("the reference \"${%s}\" has no name before its property path", body)
	}
	if strings.ContainsAny(root, " \t\n\"'${}") {
		return nil, fmt.Errorf("%q is not a valid name in a reference", root)
	}
	r := &ref{root: root}
	rest := strings.TrimPrefix(body[end:], ".")
	if end < len(body) {
		p, err := resource.ParsePath(rest)
		if err != nil {
			return nil, fmt.Errorf("in \"${%s}\": %w", body, err)
		}
		for _, e := range p {
			if _, ok := e.(resource.Wildcard); ok {
				return nil, fmt.Errorf("in \"${%s}\": a reference cannot use the wildcard *", body)
			}
		}
		r.path = p
	}
	return r, nil
}
