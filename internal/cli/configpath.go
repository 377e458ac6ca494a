package cli

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A config path, as `pulumi config set --path` takes it: a key, then
// .name or ["name"] for an object's property and [N] for an array's
// element, as in obj.inner, tags["a.b"] or list[0].
type configPath struct {
	key   string
	steps []pathStep
}

// pathStep is one step below the key: a property name, or an index.
type pathStep struct {
	name  string
	index int // when isIndex
	isIdx bool
}

func (s pathStep) String() string {
	if s.isIdx {
		return fmt.Sprintf("[%d]", s.index)
	}
	if strings.ContainsAny(s.name, ".[]\"") {
		return "[" + strconv.Quote(s.name) + "]"
	}
	return "." + s.name
}

// parseConfigPath splits a path into its key and steps.
func parseConfigPath(p string) (configPath, error) {
	end := strings.IndexAny(p, ".[")
	if end < 0 {
		end = len(p)
	}
	out := configPath{key: p[:end]}
	if out.key == "" {
		return out, fmt.Errorf("the path %q does not start with a key", p)
	}
	for rest := p[end:]; rest != ""; {
		step, n, err := parseStep(rest)
		if err != nil {
			return out, fmt.Errorf("the path %q is not of the form key.name, key[\"name\"] or key[N]: %v", p, err)
		}
		out.steps = append(out.steps, step)
		rest = rest[n:]
	}
	return out, nil
}

// parseStep reads the step at the start of s and how long it is.
func parseStep(s string) (pathStep, int, error) {
	if s[0] == '.' {
		end := strings.IndexAny(s[1:], ".[")
		if end < 0 {
			end = len(s) - 1
		}
		if end == 0 {
			return pathStep{}, 0, fmt.Errorf("an empty name at %q", s)
		}
		return pathStep{name: s[1 : 1+end]}, 1 + end, nil
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return pathStep{}, 0, fmt.Errorf("no ] after %q", s)
	}
	inner := s[1:end]
	if strings.HasPrefix(inner, `"`) {
		name, err := strconv.Unquote(inner)
		return pathStep{name: name}, end + 1, err
	}
	i, err := strconv.Atoi(inner)
	if err != nil || i < 0 {
		return pathStep{}, 0, fmt.Errorf("%q is neither an index nor a quoted name", inner)
	}
	return pathStep{index: i, isIdx: true}, end + 1, nil
}

// String is the path as written.
func (p configPath) String() string {
	var b strings.Builder
	b.WriteString(p.key)
	for _, s := range p.steps {
		b.WriteString(s.String())
	}
	return b.String()
}

// lookup returns the node the steps lead to from n, nil if none.
func (p configPath) lookup(n *yaml.Node) *yaml.Node {
	for _, s := range p.steps {
		if n = child(n, s); n == nil {
			return nil
		}
	}
	return n
}

// child is n's property or element for s, nil if it has none.
func child(n *yaml.Node, s pathStep) *yaml.Node {
	switch {
	case s.isIdx && n.Kind == yaml.SequenceNode && s.index < len(n.Content):
		return n.Content[s.index]
	case !s.isIdx && n.Kind == yaml.MappingNode && !isSecure(n):
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == s.name {
				return n.Content[i+1]
			}
		}
	}
	return nil
}

func isSecure(n *yaml.Node) bool { _, ok := secure(n); return ok }

// set puts leaf at the end of the steps below root (nil for a key not
// set yet), making the objects and arrays on the way, and returns the
// new root. An index may name an element or the one after the last.
func (p configPath) set(root, leaf *yaml.Node) (*yaml.Node, error) {
	if len(p.steps) == 0 {
		return leaf, nil
	}
	if root == nil {
		root = container(p.steps[0])
	}
	n := root
	for i, s := range p.steps {
		next := leaf
		if i+1 < len(p.steps) {
			next = child(n, s)
			if next == nil {
				next = container(p.steps[i+1])
			}
		}
		if err := p.put(n, s, next, i); err != nil {
			return nil, err
		}
		n = next
	}
	return root, nil
}

// container is an empty object or array, as step s needs.
func container(s pathStep) *yaml.Node {
	if s.isIdx {
		return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	}
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
}

// put sets n's property or element for step i to v.
func (p configPath) put(n *yaml.Node, s pathStep, v *yaml.Node, i int) error {
	at := configPath{key: p.key, steps: p.steps[:i]}
	switch {
	case s.isIdx && n.Kind == yaml.SequenceNode:
		if s.index > len(n.Content) {
			return fmt.Errorf("%s has %d elements: index %d would leave a gap (use [%d] to append)", at, len(n.Content), s.index, len(n.Content))
		}
		if s.index == len(n.Content) {
			n.Content = append(n.Content, v)
		} else {
			n.Content[s.index] = v
		}
		return nil
	case !s.isIdx && n.Kind == yaml.MappingNode && !isSecure(n):
		for j := 0; j+1 < len(n.Content); j += 2 {
			if n.Content[j].Value == s.name {
				n.Content[j+1] = v
				return nil
			}
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: s.name}, v)
		return nil
	}
	want := "an object"
	if s.isIdx {
		want = "an array"
	}
	return fmt.Errorf("%s is not %s, so %s cannot be set; remove it first with `plinth config rm --path %s`", at, want, at.String()+s.String(), at)
}

// remove deletes the node the steps lead to from root; it reports
// whether there was one.
func (p configPath) remove(root *yaml.Node) bool {
	last := len(p.steps) - 1
	parent := configPath{steps: p.steps[:last]}.lookup(root)
	if parent == nil || child(parent, p.steps[last]) == nil {
		return false
	}
	s := p.steps[last]
	if s.isIdx {
		parent.Content = append(parent.Content[:s.index], parent.Content[s.index+1:]...)
		return true
	}
	for j := 0; j+1 < len(parent.Content); j += 2 {
		if parent.Content[j].Value == s.name {
			parent.Content = append(parent.Content[:j], parent.Content[j+2:]...)
			break
		}
	}
	return true
}

// pathLeaf is the node a value set at a path is stored as: true, false
// and integers keep their type inside an object, as Pulumi stores them;
// anything else is a string.
func pathLeaf(text string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: text}
	if text == "true" || text == "false" {
		n.Tag = "!!bool"
	} else if _, err := strconv.ParseInt(text, 10, 64); err == nil {
		n.Tag = "!!int"
	}
	if n.Tag == "!!str" && strings.ContainsRune(text, '\t') {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}
