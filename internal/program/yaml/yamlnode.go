package yaml

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Limits that keep a hostile file from exhausting memory or stack: aliases
// can expand a small document exponentially, and can refer to themselves.
// A document without aliases has fewer nodes than bytes, so the node budget
// is the document's size plus aliasAllowance.
const (
	aliasAllowance = 1 << 20
	maxDepth       = 256
)

// reader walks the YAML node tree, following aliases within a budget, and
// records diagnostics.
type reader struct {
	*diags
	visited int
	budget  int
	over    bool
	// chunked, when set, is the resources block read in pieces
	// (chunks.go): the key resources at its line stands for it.
	chunked *chunked
}

// entry is one key/value pair of a mapping.
type entry struct {
	key   string
	at    pos
	value *yaml.Node
}

func at(n *yaml.Node) pos { return pos{Line: n.Line, Column: n.Column} }

// resolve follows an alias, charging the budget. It returns nil when the
// budget is spent (reported once).
func (r *reader) resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxDepth; i++ {
		n = n.Alias
	}
	r.visited++
	if n == nil || n.Kind == yaml.AliasNode || r.visited > r.budget {
		if !r.over {
			r.over = true
			r.errorf(pos{}, "", "Program too large",
				"The program expands to more than %d YAML nodes through aliases that refer to each other or to themselves. Remove the recursive or repeated aliases.", r.budget)
		}
		return nil
	}
	return n
}

// mapping returns a mapping's entries in order, reporting non-scalar and
// duplicate keys. what describes the mapping for messages.
func (r *reader) mapping(n *yaml.Node, path, what string) ([]entry, bool) {
	return r.mappingOf(n, path, func() string { return what })
}

// mappingOf is mapping with the description made only for a message: a
// large program's resources each have one (Resource "NAME").
func (r *reader) mappingOf(n *yaml.Node, path string, describe func() string) ([]entry, bool) {
	if n = r.resolve(n); n == nil {
		return nil, false
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return nil, true
	}
	if n.Kind != yaml.MappingNode {
		r.errorf(at(n), path, "Expected a mapping", "%s must be a mapping of names to values, not %s.", describe(), describeNode(n))
		return nil, false
	}
	var seen map[string]pos // for a large mapping; a small one is searched
	if len(n.Content)/2 > smallMapping {
		seen = make(map[string]pos, len(n.Content)/2)
	}
	out := make([]entry, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := r.resolve(n.Content[i])
		if k == nil {
			return nil, false
		}
		if k.Kind != yaml.ScalarNode {
			r.errorf(at(k), path, "Invalid key", "The keys of %s must be plain names, not %s.", describe(), describeNode(k))
			continue
		}
		if first, dup := lookup(seen, out, k.Value); dup {
			r.duplicate(at(k), path, k.Value, first, describe())
			continue
		}
		if seen != nil {
			seen[k.Value] = at(k)
		}
		out = append(out, entry{key: k.Value, at: at(k), value: n.Content[i+1]})
	}
	return out, true
}

// smallMapping is the most entries a mapping may have for its duplicate
// keys to be found by searching its entries rather than through a map:
// a large program's many small mappings (each resource's fields, its
// properties) made a map each.
const smallMapping = 8

// lookup finds key among the entries read so far: in seen, or in out
// when seen is nil.
func lookup(seen map[string]pos, out []entry, key string) (pos, bool) {
	if seen != nil {
		first, ok := seen[key]
		return first, ok
	}
	for _, en := range out {
		if en.key == key {
			return en.at, true
		}
	}
	return pos{}, false
}

// duplicate reports a key set again at at, first set at first.
func (r *reader) duplicate(at pos, path, key string, first pos, what string) {
	r.errorf(at, joinPath(path, key), "Duplicate key",
		"%q is already set at line %d in %s. Remove one of the two.", key, first.Line, what)
}

// sequence returns a sequence's items.
func (r *reader) sequence(n *yaml.Node, path, what string) ([]*yaml.Node, bool) {
	if n = r.resolve(n); n == nil {
		return nil, false
	}
	if n.Kind != yaml.SequenceNode {
		r.errorf(at(n), path, "Expected a list", "%s must be a list, not %s.", what, describeNode(n))
		return nil, false
	}
	return n.Content, true
}

// str returns a scalar's text, reporting anything else.
func (r *reader) str(n *yaml.Node, path, what string) (string, bool) {
	if n = r.resolve(n); n == nil {
		return "", false
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		r.errorf(at(n), path, "Expected a string", "%s must be a string, not %s.", what, describeNode(n))
		return "", false
	}
	return n.Value, true
}

// describeNode names what a node is, for messages.
func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!bool":
			return "the boolean " + n.Value
		case "!!int", "!!float":
			return "the number " + n.Value
		}
		return fmt.Sprintf("the string %q", n.Value)
	}
	return "an alias"
}

var decimal = regexp.MustCompile(`^[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$`)

// scalar converts a non-string scalar (null, bool, number) to a value.
func scalar(n *yaml.Node) (resource.Value, error) {
	switch n.ShortTag() {
	case "!!null":
		return resource.Null(), nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return resource.Value{}, err
		}
		return resource.NewBool(b), nil
	case "!!int", "!!float":
		return number(n)
	case "!!str":
		return resource.NewString(n.Value), nil
	}
	return resource.Value{}, fmt.Errorf("the YAML tag %s is not supported; write the value as a plain string, number, boolean or null", n.ShortTag())
}

// number keeps every digit of a decimal literal; other YAML number forms
// (0x1F, 0o17, 1_000) go through the YAML decoder.
func number(n *yaml.Node) (resource.Value, error) {
	if decimal.MatchString(n.Value) {
		return parseDecimal(strings.TrimPrefix(n.Value, "+"))
	}
	var f float64
	if err := n.Decode(&f); err != nil {
		return resource.Value{}, fmt.Errorf("%q is not a number", n.Value)
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return resource.Value{}, fmt.Errorf("%q is not a finite number", n.Value)
	}
	return resource.NewNumber(f), nil
}

// joinPath appends a key to a dotted program path.
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	if isPlainKey(key) {
		return path + "." + key
	}
	return fmt.Sprintf("%s[%q]", path, key)
}

func isPlainKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r == '-' || r == ':' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
