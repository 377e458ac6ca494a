package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// stackConfig is a stack's config file, plinth.<stack>.yaml beside the
// program, as Pulumi users expect:
//
//	config:
//	  prefix: demo
//	  token:
//	    secure: <ciphertext sealed with the stack's key>
//
// Values are kept as YAML nodes: scalars are read as text (the program
// converts them to the declared type), mappings and sequences as
// structured values, and a mapping with the single key "secure" as a
// secret.
type stackConfig struct {
	path, shown string
	values      map[string]*yaml.Node
	// salt is the encryptionsalt line of a passphrase stack: the salt,
	// cost and check value its key is derived with. It is committed with
	// the file, so that a clone with the passphrase can decrypt.
	salt string
	// inPlace makes save edit the file's YAML rather than write it anew
	// (Pulumi.<stack>.yaml, which people edit by hand and pulumi writes).
	inPlace bool
	// beforeWrite, if set, is called just before the file is written
	// (Env.BeforeConfigWrite).
	beforeWrite func(path string)
}

var _ secrets.SaltStore = (*stackConfig)(nil)

// Salt returns the encryptionsalt line, "" if none.
func (c *stackConfig) Salt() string { return c.salt }

// SetSalt sets the encryptionsalt line, written with the next save.
func (c *stackConfig) SetSalt(line string) { c.salt = line }

// Where names the file.
func (c *stackConfig) Where() string { return c.shown }

// sealed lists the keys whose values are encrypted, sorted.
func (c *stackConfig) sealed() []string {
	var out []string
	for _, k := range c.keys() {
		if holdsSecure(c.values[k]) {
			out = append(out, k)
		}
	}
	return out
}

// holdsSecure reports whether n is, or holds, a secure value.
func holdsSecure(n *yaml.Node) bool {
	if _, ok := secure(n); ok {
		return true
	}
	for i, e := range n.Content {
		if (n.Kind != yaml.MappingNode || i%2 == 1) && holdsSecure(e) {
			return true
		}
	}
	return false
}

// cipher seals and opens config secrets: the stack's secrets.Crypter.
type cipher interface {
	Seal(plaintext []byte) (string, error)
	Open(ciphertext string) ([]byte, error)
}

func readStackConfig(path, shown string) (*stackConfig, error) {
	c := &stackConfig{path: path, shown: shown, values: map[string]*yaml.Node{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the stack config %s: %w", shown, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, c.invalid(0, 0, "It is not valid YAML: %v.", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return c, nil
	}
	return c, c.parse(doc.Content[0])
}

func (c *stackConfig) invalid(line, col int, detail string, args ...any) error {
	where := c.shown
	if line > 0 {
		where = fmt.Sprintf("%s:%d:%d", c.shown, line, col)
	}
	return &display.Error{Summary: "Invalid stack config", Where: where,
		Detail: fmt.Sprintf(detail, args...) + " The file holds a config: mapping of key: value; fix it by hand or remove it and use `plinth config set`."}
}

func (c *stackConfig) parse(top *yaml.Node) error {
	if top.Kind != yaml.MappingNode {
		return c.invalid(top.Line, top.Column, "The file is not a mapping.")
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if k.Value == "encryptionsalt" && v.Kind == yaml.ScalarNode {
			c.salt = v.Value
			continue
		}
		if k.Value == "secretsprovider" || k.Value == "encryptedkey" {
			return c.invalid(k.Line, k.Column, "Its secrets are sealed by a secrets provider other than Pulumi's passphrase provider (%s), which plinth cannot open. Change it with `pulumi stack change-secrets-provider passphrase`.", k.Value)
		}
		if k.Value != "config" {
			return c.invalid(k.Line, k.Column, "%q is not a section of a stack config file; only config and encryptionsalt are.", k.Value)
		}
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			continue
		}
		if v.Kind != yaml.MappingNode {
			return c.invalid(v.Line, v.Column, "config must be a mapping of key: value.")
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			c.values[v.Content[j].Value] = v.Content[j+1]
		}
	}
	return nil
}

// keys returns the keys set, sorted.
func (c *stackConfig) keys() []string {
	out := make([]string, 0, len(c.values))
	for k := range c.values {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// secure returns the ciphertext of a secret value node.
func secure(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 || n.Content[0].Value != "secure" {
		return "", false
	}
	return n.Content[1].Value, true
}

// value decodes one key: text for a scalar, a structured value for a
// mapping or sequence, a secret string for {secure: ...}, also inside a
// structured value (Pulumi's `config set --path --secret`).
func (c *stackConfig) value(key string, ciph cipher) (resource.Value, error) {
	n := c.values[key]
	if n.Kind == yaml.ScalarNode {
		if _, ok := secure(n); !ok {
			return resource.NewString(n.Value), nil
		}
	}
	return c.decode(key, key, n, ciph)
}

// decode decodes the node at path (key, or a path below it): mappings
// and sequences element by element, so that a secure: leaf is opened
// where it is; scalars with their YAML types.
func (c *stackConfig) decode(key, path string, n *yaml.Node, ciph cipher) (resource.Value, error) {
	if ct, ok := secure(n); ok {
		pt, err := ciph.Open(ct)
		if err != nil {
			return resource.Value{}, c.openError(key, path, n, err)
		}
		return resource.MakeSecret(resource.NewString(string(pt))), nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		obj := resource.Object{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			v, err := c.decode(key, path+"."+k, n.Content[i+1], ciph)
			if err != nil {
				return resource.Value{}, err
			}
			obj[k] = v
		}
		return resource.NewObject(obj), nil
	case yaml.SequenceNode:
		arr := make([]resource.Value, len(n.Content))
		for i, e := range n.Content {
			v, err := c.decode(key, fmt.Sprintf("%s[%d]", path, i), e, ciph)
			if err != nil {
				return resource.Value{}, err
			}
			arr[i] = v
		}
		return resource.NewArray(arr...), nil
	}
	var x any
	if err := n.Decode(&x); err != nil {
		return resource.Value{}, c.invalid(n.Line, n.Column, "The value of %q cannot be read: %v.", path, err)
	}
	v, err := resource.FromGo(x)
	if err != nil {
		return resource.Value{}, c.invalid(n.Line, n.Column, "The value of %q cannot be read: %v.", path, err)
	}
	return v, nil
}

// openError says that a secure value does not open. A *display.Error
// from the cipher (a passphrase that is wrong or missing) is the whole
// story; anything else is this value's fault.
func (c *stackConfig) openError(key, path string, n *yaml.Node, err error) error {
	var de *display.Error
	if errors.As(err, &de) {
		return err
	}
	flags := "--secret "
	if path != key {
		flags = "--path --secret "
	}
	return c.invalid(n.Line, n.Column, "The secret value of %q cannot be decrypted with the stack's key (%v). Set it again with `plinth config set %s%s VALUE`.", path, err, flags, path)
}

// Values decodes every key, for the program.
func (c *stackConfig) Values(ciph cipher) (map[string]resource.Value, error) {
	out := make(map[string]resource.Value, len(c.values))
	for _, k := range c.keys() {
		n := c.values[k]
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			continue
		}
		v, err := c.value(k, ciph)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// text returns a key's value as people typed it: the plaintext of a
// secret, JSON for a structured value.
func (c *stackConfig) text(key string, ciph cipher) (text string, secret bool, err error) {
	v, err := c.value(key, ciph)
	if err != nil {
		return "", false, err
	}
	return valueText(v)
}

// valueText is a value as people typed it: the plaintext of a secret,
// JSON (with any secrets inside in plain text) for a structured value.
func valueText(v resource.Value) (text string, secret bool, err error) {
	plain, secret := v.Unsecret()
	if plain.Kind() == resource.StringKind {
		return plain.Str(), secret, nil
	}
	data, err := json.Marshal(display.JSONValue(plain))
	return string(data), secret, err
}

// set stores a value: sealed when secret, structured when it is an array
// or object, else as text.
func (c *stackConfig) set(key, text string, typed resource.Value, secret bool, ciph cipher) error {
	n := &yaml.Node{}
	switch {
	case secret:
		ct, err := ciph.Seal([]byte(text))
		if err != nil {
			return fmt.Errorf("encrypting the value of %s: %w", key, err)
		}
		n = secureNode(ct)
	case typed.Kind() == resource.ArrayKind || typed.Kind() == resource.ObjectKind:
		if err := n.Encode(typed.ToGo()); err != nil {
			return fmt.Errorf("encoding the value of %s: %w", key, err)
		}
	default:
		n = textNode(text)
	}
	c.values[key] = n
	return nil
}

// secureNode is a sealed value: {secure: ciphertext}.
func secureNode(ciphertext string) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "secure"}, {Kind: yaml.ScalarNode, Value: ciphertext}}}
}

// textNode is a string value, quoted where YAML would read it otherwise.
func textNode(text string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: text}
	if strings.ContainsRune(text, '\t') {
		// The YAML encoder would write a tab at the start of a line of a
		// block scalar, which its own decoder refuses; quoted, the tab
		// is an escape.
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// at returns the value at a path, and whether the file sets it.
func (c *stackConfig) at(p configPath, ciph cipher) (resource.Value, bool, error) {
	n, ok := c.values[p.key]
	if !ok {
		return resource.Value{}, false, nil
	}
	if len(p.steps) == 0 {
		v, err := c.value(p.key, ciph)
		return v, true, err
	}
	if n = p.lookup(n); n == nil {
		return resource.Value{}, false, nil
	}
	v, err := c.decode(p.key, p.String(), n, ciph)
	return v, true, err
}

// save writes the file with its keys sorted, or removes it when no key
// and no encryptionsalt is left. A file read inPlace is edited instead.
// The caller holds the lock on the file (lockConfig) since before it read
// it, so that no other command's change is lost.
func (c *stackConfig) save() error {
	if c.inPlace {
		return c.saveInPlace()
	}
	return c.saveAnew()
}

func (c *stackConfig) saveAnew() error {
	if len(c.values) == 0 && c.salt == "" {
		if err := os.Remove(c.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", c.shown, err)
		}
		return nil
	}
	doc := &yaml.Node{Kind: yaml.MappingNode}
	if c.salt != "" {
		doc.Content = append(doc.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "encryptionsalt"}, &yaml.Node{Kind: yaml.ScalarNode, Value: c.salt})
	}
	if len(c.values) > 0 {
		m := &yaml.Node{Kind: yaml.MappingNode}
		for _, k := range c.keys() {
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, c.values[k])
		}
		doc.Content = append(doc.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "config"}, m)
	}
	return c.encode(doc)
}

// saveSalt writes the encryptionsalt line into the file and changes
// nothing else in it: keys keep their order and comments, which save,
// rewriting the file from its values, would not keep. A file that is
// missing, or not a mapping, is written by save. The caller holds the
// lock on the file (lockConfig): the file is read again under it.
func (c *stackConfig) saveSalt() error {
	doc := c.readMapping()
	if doc == nil {
		// Write what the file holds now, not what c read earlier.
		now, err := readStackConfig(c.path, c.shown)
		if err != nil {
			return err
		}
		now.salt, now.beforeWrite = c.salt, c.beforeWrite
		return now.saveAnew()
	}
	top := doc.Content[0]
	salt := []*yaml.Node{{Kind: yaml.ScalarNode, Value: "encryptionsalt"}, {Kind: yaml.ScalarNode, Value: c.salt}}
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "encryptionsalt" {
			top.Content = append(top.Content[:i], top.Content[i+2:]...)
			break
		}
	}
	if len(top.Content) > 0 { // a comment atop the file stays atop it
		salt[0].HeadComment, top.Content[0].HeadComment = top.Content[0].HeadComment, ""
	}
	top.Content = append(salt, top.Content...)
	return c.encode(doc)
}

// saveInPlace writes the values and salt into the file's own YAML: keys
// keep their order and comments, a new key goes after them, a removed
// one goes. A file that is missing or not a mapping is written anew.
func (c *stackConfig) saveInPlace() error {
	doc := c.readMapping()
	if doc == nil {
		return c.saveAnew()
	}
	top := doc.Content[0]
	if c.salt != "" {
		setSection(top, "encryptionsalt", &yaml.Node{Kind: yaml.ScalarNode, Value: c.salt}, true)
	}
	cfg := &yaml.Node{Kind: yaml.MappingNode}
	if old := section(top, "config"); old != nil && old.Kind == yaml.MappingNode {
		cfg = old
	}
	var kept []*yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(cfg.Content); i += 2 {
		if k := cfg.Content[i]; c.values[k.Value] != nil && !seen[k.Value] {
			kept, seen[k.Value] = append(kept, k, c.values[k.Value]), true
		}
	}
	for _, k := range c.keys() {
		if !seen[k] {
			kept = append(kept, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, c.values[k])
		}
	}
	cfg.Content = kept
	setSection(top, "config", cfg, false)
	return c.encode(doc)
}

// readMapping reads the file as YAML; nil if it is missing, does not
// parse, or is not a mapping.
func (c *stackConfig) readMapping() *yaml.Node {
	data, err := os.ReadFile(c.path)
	var doc yaml.Node
	if err != nil || yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	return &doc
}

// section returns the value of a top-level key, nil if none.
func section(top *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == key {
			return top.Content[i+1]
		}
	}
	return nil
}

// setSection sets a top-level key, adding it first or last.
func setSection(top *yaml.Node, key string, v *yaml.Node, first bool) {
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == key {
			top.Content[i+1] = v
			return
		}
	}
	kv := []*yaml.Node{{Kind: yaml.ScalarNode, Value: key}, v}
	if first {
		top.Content = append(kv, top.Content...)
	} else {
		top.Content = append(top.Content, kv...)
	}
}

// encode writes doc to the file.
func (c *stackConfig) encode(doc *yaml.Node) error {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("encoding %s: %w", c.shown, err)
	}
	if c.beforeWrite != nil {
		c.beforeWrite(c.path)
	}
	if err := writeFileAtomic(c.path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", c.shown, err)
	}
	return nil
}
