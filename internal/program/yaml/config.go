package yaml

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// ConfigType is the declared type of a config key.
type ConfigType string

// The config types.
const (
	ConfigString  ConfigType = "string"
	ConfigInteger ConfigType = "integer"
	ConfigNumber  ConfigType = "number"
	ConfigBoolean ConfigType = "boolean"
	ConfigArray   ConfigType = "array"
	ConfigObject  ConfigType = "object"
)

var configTypes = []string{"string", "integer", "number", "boolean", "array", "object"}

// ConfigDecl is a config key the program declares. Key is either a plain
// name, which the program reads as ${key}, or PKG:KEY, configuration for
// the default provider of package PKG.
type ConfigDecl struct {
	Key         string
	Type        ConfigType
	Default     resource.Value
	HasDefault  bool
	Secret      bool
	Description string
	at          pos
}

// Required reports whether the stack must set the key.
func (d *ConfigDecl) Required() bool { return !d.HasDefault }

var configDeclKeys = []string{"type", "default", "secret", "description"}

func (p *Project) parseConfig(r *reader, n *yaml.Node) {
	entries, _ := r.mapping(n, "config", "config")
	for _, en := range entries {
		where := joinPath("config", en.key)
		if !validConfigKey(en.key) {
			r.errorf(en.at, where, "Invalid config key", "%q is not a config key: write a name such as prefix, or PACKAGE:NAME such as random:seed for provider configuration.", en.key)
			continue
		}
		d := &ConfigDecl{Key: en.key, at: en.at}
		if !d.parse(r, en.value, where) {
			continue
		}
		p.config = append(p.config, d)
		p.configByKey[d.Key] = d
	}
}

func validConfigKey(k string) bool {
	ns, name, found := strings.Cut(k, ":")
	if !found {
		return isConfigName(k)
	}
	return program.IsPackageName(ns) && isConfigName(name)
}

func isConfigName(s string) bool {
	return s != "" && !strings.ContainsAny(s, ":.[]{}$\"' \t\n")
}

// parse reads {type, default, secret, description}; any other value is a
// default whose type is inferred.
func (d *ConfigDecl) parse(r *reader, n *yaml.Node, where string) bool {
	if rn := r.resolve(n); rn != nil && rn.Kind != yaml.MappingNode {
		return d.setDefault(r, rn, where)
	}
	fields, ok := r.mapping(n, where, "A config declaration")
	var typeNode *yaml.Node
	for _, f := range fields {
		w := joinPath(where, f.key)
		switch f.key {
		case "type":
			typeNode = f.value
		case "default":
			ok = d.setDefault(r, f.value, w) && ok
		case "secret":
			ok = parseBool(r, f.value, w, &d.Secret) && ok
		case "description":
			d.Description, _ = r.str(f.value, w, "description")
		default:
			r.errorf(f.at, w, "Unknown field", "A config declaration has no field %q.%s Its fields are %s.", f.key, suggest(f.key, configDeclKeys), quoteList(configDeclKeys, 10))
			ok = false
		}
	}
	return ok && d.setType(r, typeNode, where)
}

func (d *ConfigDecl) setDefault(r *reader, n *yaml.Node, where string) bool {
	e := r.parseExpr(n, where, 0)
	if e == nil {
		return false
	}
	v, ok := literalValue(e)
	if !ok {
		r.errorf(e.at, where, "Invalid default", "The default of config key %q must be a plain value, without ${...} references or fn:: functions.", d.Key)
		return false
	}
	d.Default, d.HasDefault = v, true
	return true
}

// setType sets the declared type, or infers it from the default, and checks
// the default against it.
func (d *ConfigDecl) setType(r *reader, n *yaml.Node, where string) bool {
	d.Type = inferType(d.Default)
	if n != nil {
		s, ok := r.str(n, joinPath(where, "type"), "type")
		if !ok {
			return false
		}
		if !contains(configTypes, s) {
			r.errorf(at(n), joinPath(where, "type"), "Unknown config type",
				"%q is not a config type.%s The types are %s.", s, suggest(s, configTypes), quoteList(configTypes, 10))
			return false
		}
		d.Type = ConfigType(s)
	}
	if !d.HasDefault {
		return true
	}
	v, err := d.Type.coerce(d.Default)
	if err != nil {
		r.errorf(d.at, where, "Invalid default", "The default of config key %q %s. Change the default or the type.", d.Key, err)
		return false
	}
	d.Default = v
	return true
}

func inferType(v resource.Value) ConfigType {
	switch v.Kind() {
	case resource.NumberKind:
		if isInteger(v) {
			return ConfigInteger
		}
		return ConfigNumber
	case resource.BoolKind:
		return ConfigBoolean
	case resource.ArrayKind:
		return ConfigArray
	case resource.ObjectKind:
		return ConfigObject
	}
	return ConfigString
}

func isInteger(v resource.Value) bool {
	f := v.Number()
	return v.Kind() == resource.NumberKind && f == math.Trunc(f) && !math.IsInf(f, 0)
}

// literalValue returns the value of an expression made only of literals.
func literalValue(e *expr) (resource.Value, bool) {
	switch e.kind {
	case exprLiteral:
		return e.lit, true
	case exprList:
		out := make([]resource.Value, len(e.elems()))
		for i, el := range e.elems() {
			v, ok := literalValue(el)
			if !ok {
				return resource.Value{}, false
			}
			out[i] = v
		}
		return resource.NewArray(out...), true
	case exprObject:
		o := make(resource.Object, len(e.keys()))
		for i, k := range e.keys() {
			v, ok := literalValue(e.vals()[i])
			if !ok {
				return resource.Value{}, false
			}
			o[k] = v
		}
		return resource.NewObject(o), true
	}
	return resource.Value{}, false
}

// coerce checks a value against the type. A string given for another type
// is parsed as that type's text form (stack config files and the command
// line hold text). Secrets stay secret.
func (t ConfigType) coerce(v resource.Value) (resource.Value, error) {
	inner := v.SecretElement()
	if inner.Kind() == resource.StringKind && t != ConfigString {
		parsed, err := t.Parse(inner.Str())
		if err != nil {
			return resource.Value{}, err
		}
		return resource.Sticky(parsed, v), nil
	}
	if !t.accepts(inner) {
		return resource.Value{}, fmt.Errorf("is %s, not %s %s", describeValue(inner), article(string(t)), t)
	}
	return v, nil
}

func (t ConfigType) accepts(v resource.Value) bool {
	switch t {
	case ConfigString:
		return v.Kind() == resource.StringKind
	case ConfigInteger:
		return isInteger(v)
	case ConfigNumber:
		return v.Kind() == resource.NumberKind
	case ConfigBoolean:
		return v.Kind() == resource.BoolKind
	case ConfigArray:
		return v.Kind() == resource.ArrayKind
	case ConfigObject:
		return v.Kind() == resource.ObjectKind
	}
	return false
}

// Parse converts the text form of a value of this type: a decimal for
// integer and number, true or false for boolean, JSON for array and object.
func (t ConfigType) Parse(text string) (resource.Value, error) {
	switch t {
	case ConfigInteger:
		if _, err := strconv.ParseInt(text, 10, 64); err != nil {
			return resource.Value{}, fmt.Errorf("is %q, not an integer", text)
		}
		return parseDecimal(text)
	case ConfigNumber:
		if _, err := strconv.ParseFloat(text, 64); err != nil || !decimal.MatchString(text) {
			return resource.Value{}, fmt.Errorf("is %q, not a number", text)
		}
		return parseDecimal(strings.TrimPrefix(text, "+"))
	case ConfigBoolean:
		b, err := strconv.ParseBool(text)
		if err != nil || (text != "true" && text != "false") {
			return resource.Value{}, fmt.Errorf("is %q, not true or false", text)
		}
		return resource.NewBool(b), nil
	case ConfigArray, ConfigObject:
		v, err := parseJSON(text)
		if err != nil || !t.accepts(v) {
			return resource.Value{}, fmt.Errorf("is not a JSON %s", map[ConfigType]string{ConfigArray: "array ([...])", ConfigObject: "object ({...})"}[t])
		}
		return v, nil
	}
	return resource.NewString(text), nil
}

// hiddenTypeError says a secret value has the wrong type without showing it.
func hiddenTypeError(t ConfigType) error {
	return fmt.Errorf("is not %s %s (the value is secret, so it is not shown)", article(string(t)), t)
}

func article(s string) string {
	if strings.ContainsRune("aeiou", rune(s[0])) {
		return "an"
	}
	return "a"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Config returns the program's config declarations in program order.
func (p *Project) Config() []ConfigDecl {
	out := make([]ConfigDecl, len(p.config))
	for i, d := range p.config {
		out[i] = *d
	}
	return out
}

// normalizeKey strips the project's own namespace: PROJECT:key is key.
func (p *Project) normalizeKey(k string) string {
	if rest, ok := strings.CutPrefix(k, p.name+":"); ok && !strings.Contains(rest, ":") {
		return rest
	}
	return k
}

// resolveConfig checks the stack's config against the declarations and
// returns the value of every key, defaults applied and secrets marked.
func (p *Project) resolveConfig(stack map[string]resource.Value) (map[string]resource.Value, program.Diagnostics) {
	d := &diags{file: p.file}
	out := make(map[string]resource.Value, len(stack)+len(p.config))
	keys := make([]string, 0, len(stack))
	for k := range stack {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p.stackValue(d, out, k, stack[k])
	}
	for _, decl := range p.config {
		p.declValue(d, out, decl)
	}
	for _, rf := range p.nsRefs {
		if _, ok := out[rf.root]; !ok {
			d.errorf(rf.at, rf.where, "Missing config value",
				"%s reads config key %q, which the stack does not set. Set it with \"plinth config set %s VALUE\", or declare it with a default under config.", rf.text, rf.root, rf.root)
		}
	}
	return out, d.list
}

func (p *Project) stackValue(d *diags, out map[string]resource.Value, k string, v resource.Value) {
	key := p.normalizeKey(k)
	decl, declared := p.configByKey[key]
	switch {
	case declared:
		cv, err := decl.Type.coerce(v)
		if err != nil && (decl.Secret || v.ContainsSecrets()) {
			err = hiddenTypeError(decl.Type)
		}
		if err != nil {
			d.errorf(decl.at, joinPath("config", key), "Invalid config value",
				"The stack's value for config key %q %s. Set a valid value with \"plinth config set %s VALUE\".", key, err, key)
			return
		}
		if decl.Secret {
			cv = resource.MakeSecret(cv)
		}
		out[key] = cv
	case strings.Contains(key, ":"):
		out[key] = v
	default:
		out[key] = v
		d.warnf(pos{}, joinPath("config", key), "Undeclared config key",
			"The stack sets config key %q, which the program does not declare, so nothing reads it. Declare it under config, or remove it with \"plinth config rm %s\".", key, key)
	}
}

func (p *Project) declValue(d *diags, out map[string]resource.Value, decl *ConfigDecl) {
	if _, set := out[decl.Key]; set {
		return
	}
	where := joinPath("config", decl.Key)
	if !decl.HasDefault {
		if p.importOnly || p.declaredStackValueFailed(d, where) {
			return
		}
		hint := ""
		if decl.Secret {
			hint = " --secret"
		}
		d.errorf(decl.at, where, "Missing required config value",
			"The program needs a value for config key %q (%s %s) and declares no default. Set one with \"plinth config set%s %s VALUE\", or give the key a default in %s.",
			decl.Key, article(string(decl.Type)), decl.Type, hint, decl.Key, FileName)
		return
	}
	v := decl.Default
	if decl.Secret {
		v = resource.MakeSecret(v)
	}
	out[decl.Key] = v
}

// declaredStackValueFailed reports whether the key already has an error
// (an invalid stack value), so it is not also reported missing.
func (p *Project) declaredStackValueFailed(d *diags, where string) bool {
	for _, x := range d.list {
		if x.Path == where {
			return true
		}
	}
	return false
}

// ParseConfigValue checks the text of "plinth config set KEY TEXT" against
// the program's declaration of KEY and converts it to the declared type.
func (p *Project) ParseConfigValue(key, text string) (program.ConfigValue, error) {
	key = p.normalizeKey(key)
	if !validConfigKey(key) {
		return program.ConfigValue{}, program.Diagnostic{Summary: "Invalid config key", Path: joinPath("config", key),
			Detail: fmt.Sprintf("%q is not a config key: write a name such as prefix, or PACKAGE:NAME such as random:seed.", key)}
	}
	decl, ok := p.configByKey[key]
	if !ok {
		return program.ConfigValue{Key: key, Value: resource.NewString(text)}, nil
	}
	v, err := decl.Type.coerce(resource.NewString(text))
	if err != nil && decl.Secret {
		err = hiddenTypeError(decl.Type)
	}
	if err != nil {
		return program.ConfigValue{}, program.Diagnostic{Summary: "Invalid config value", File: p.file, Line: decl.at.Line, Column: decl.at.Column,
			Path:   joinPath("config", key),
			Detail: fmt.Sprintf("The value for config key %q %s. The program declares it as %s %s.", key, err, article(string(decl.Type)), decl.Type)}
	}
	return program.ConfigValue{Key: key, Value: v, Secret: decl.Secret, Declared: true}, nil
}

// ProviderConfig returns the configuration of the default provider for a
// package: every PKG:KEY config value as KEY, with the program's declared
// defaults and types applied. Values that fail their declared type are left
// out (Program reports them). Keys in the project's own namespace are the
// program's, never a provider's.
func (p *Project) ProviderConfig(config map[string]resource.Value, pkg string) resource.Object {
	out := resource.Object{}
	if pkg == p.name {
		return out
	}
	prefix := pkg + ":"
	for _, d := range p.config {
		if name, ok := strings.CutPrefix(d.Key, prefix); ok && d.HasDefault {
			out[name] = secretIf(d.Default, d.Secret)
		}
	}
	for k, v := range config {
		name, ok := strings.CutPrefix(k, prefix)
		if !ok {
			continue
		}
		if d, declared := p.configByKey[k]; declared {
			cv, err := d.Type.coerce(v)
			if err != nil {
				continue
			}
			v = secretIf(cv, d.Secret)
		}
		out[name] = v
	}
	return out
}

// DefaultProviderConfig adapts ProviderConfig to engine.Options.
func (p *Project) DefaultProviderConfig(config map[string]resource.Value) func(pkg string) resource.Object {
	return func(pkg string) resource.Object { return p.ProviderConfig(config, pkg) }
}

func secretIf(v resource.Value, secret bool) resource.Value {
	if secret {
		return resource.MakeSecret(v)
	}
	return v
}
