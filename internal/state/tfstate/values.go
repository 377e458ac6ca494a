package tfstate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// decodeJSON parses JSON into a value, numbers exact.
func decodeJSON(raw []byte) (resource.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var g any
	if err := dec.Decode(&g); err != nil {
		return resource.Value{}, err
	}
	return resource.FromJSONData(g, resource.ParseNumber)
}

// toGo turns a value into what encoding/json writes, secrets unwrapped.
// Only plain data can be written to a Terraform state.
func toGo(v resource.Value, path resource.PropertyPath) (any, error) {
	return resource.ToJSONData(v, path, func(v resource.Value, path resource.PropertyPath) error {
		if v.Kind() == resource.NumberKind {
			return fmt.Errorf("property %s: %v cannot be written to a Terraform state", path, v.Number())
		}
		return fmt.Errorf("property %s: a %s cannot be written to a Terraform state", path, v.Kind())
	})
}

// parsePaths reads sensitive_attributes: a list of paths, each a list of
// steps.
func parsePaths(raw json.RawMessage) ([]resource.PropertyPath, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var paths [][]pathStep
	if err := json.Unmarshal(raw, &paths); err != nil {
		return nil, fmt.Errorf("sensitive_attributes is not a list of attribute paths: %v", err)
	}
	out := make([]resource.PropertyPath, 0, len(paths))
	for _, steps := range paths {
		p, err := parsePath(steps)
		if err != nil {
			return nil, fmt.Errorf("sensitive_attributes: %w", err)
		}
		if len(p) > 0 {
			out = append(out, p)
		}
	}
	return out, nil
}

func parsePath(steps []pathStep) (resource.PropertyPath, error) {
	var p resource.PropertyPath
	for _, s := range steps {
		switch s.Type {
		case "get_attr":
			var name string
			if err := json.Unmarshal(s.Value, &name); err != nil {
				return nil, fmt.Errorf("a get_attr step's value %s is not a string", s.Value)
			}
			p = append(p, name)
		case "index":
			k, err := indexKey(s.Value)
			if err != nil {
				return nil, err
			}
			p = append(p, k)
		default:
			return nil, fmt.Errorf("a path step has type %q; Terraform writes \"get_attr\" or \"index\"", s.Type)
		}
	}
	return p, nil
}

func indexKey(raw json.RawMessage) (any, error) {
	var tv typedValue
	if err := json.Unmarshal(raw, &tv); err != nil {
		return nil, fmt.Errorf("an index step's value %s is not {\"value\":…,\"type\":…}", raw)
	}
	switch tv.Type {
	case "number":
		n, err := strconv.Atoi(string(tv.Value))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("an index step's number %s is not a list index", tv.Value)
		}
		return n, nil
	case "string":
		var s string
		if err := json.Unmarshal(tv.Value, &s); err != nil {
			return nil, fmt.Errorf("an index step's string %s is not a string", tv.Value)
		}
		return s, nil
	}
	return nil, fmt.Errorf("an index step's key has type %s; only number and string keys can be stored", tv.Type)
}

// markSecret makes the value at path secret. A path that leads nowhere
// (an element of a null list) marks nothing: there is nothing to hide.
func markSecret(v resource.Value, path resource.PropertyPath) resource.Value {
	if len(path) == 0 {
		return resource.MakeSecret(v)
	}
	inner, wasSecret := v.SecretElement(), v.IsSecret()
	var out resource.Value
	switch k := path[0].(type) {
	case string:
		if inner.Kind() != resource.ObjectKind {
			return v
		}
		e, ok := inner.Object()[k]
		if !ok {
			return v
		}
		o := inner.Object().Copy()
		o[k] = markSecret(e, path[1:])
		out = resource.NewObject(o)
	case int:
		if inner.Kind() != resource.ArrayKind || k >= len(inner.Array()) {
			return v
		}
		a := append([]resource.Value(nil), inner.Array()...)
		a[k] = markSecret(a[k], path[1:])
		out = resource.NewArray(a...)
	default:
		return v
	}
	if wasSecret {
		return resource.MakeSecret(out)
	}
	return out
}

// secretPaths lists the paths of the secrets in an object, in order.
func secretPaths(o resource.Object) []resource.PropertyPath {
	var out []resource.PropertyPath
	var walk func(v resource.Value, p resource.PropertyPath)
	walk = func(v resource.Value, p resource.PropertyPath) {
		if v.IsSecret() {
			out = append(out, append(resource.PropertyPath(nil), p...))
			return
		}
		switch v.Kind() {
		case resource.ArrayKind:
			for i, e := range v.Array() {
				walk(e, append(p, i))
			}
		case resource.ObjectKind:
			for _, k := range sortedKeys(v.Object()) {
				walk(v.Object()[k], append(p, k))
			}
		}
	}
	for _, k := range sortedKeys(o) {
		walk(o[k], resource.PropertyPath{k})
	}
	return out
}

func sortedKeys(o resource.Object) []string {
	keys := o.Keys()
	sort.Strings(keys)
	return keys
}

// pathSteps writes a path as Terraform's sensitive_attributes entry.
func pathSteps(p resource.PropertyPath) []any {
	steps := make([]any, len(p))
	for i, k := range p {
		switch k := k.(type) {
		case int:
			steps[i] = map[string]any{"type": "index", "value": map[string]any{"value": k, "type": "number"}}
		default:
			steps[i] = map[string]any{"type": "get_attr", "value": fmt.Sprint(k)}
		}
	}
	return steps
}

// maxKeyForms bounds the string steps of one path written both ways (see
// pathForms): 2^maxKeyForms paths at most.
const maxKeyForms = 3

// pathForms writes a secret path as the sensitive paths terraform is to
// find it under. plinth's values do not tell a map from an object, so a
// string step below an attribute may be a map key (terraform writes an
// index step, random_id's keepers["a"]) or an object's attribute (a
// get_attr step): it is written both ways, and terraform, which marks the
// paths that name a part of the value, keeps the one that does. A string
// step right after a number indexes an element of a list or set of
// nested blocks, which are objects, and is an attribute step; so are the
// string steps beyond the first maxKeyForms.
func pathForms(p resource.PropertyPath) [][]any {
	forms := [][]any{pathSteps(p)}
	ambiguous := 0
	for i := 1; i < len(p) && ambiguous < maxKeyForms; i++ {
		key, isKey := p[i].(string)
		if _, afterIndex := p[i-1].(int); !isKey || afterIndex {
			continue
		}
		ambiguous++
		for _, f := range forms {
			g := slices.Clone(f)
			g[i] = map[string]any{"type": "index", "value": map[string]any{"value": key, "type": "string"}}
			forms = append(forms, g)
		}
	}
	return forms
}

// typeOf infers a Terraform type for an output value.
func typeOf(v resource.Value) any {
	v = v.SecretElement()
	switch v.Kind() {
	case resource.BoolKind:
		return "bool"
	case resource.NumberKind:
		return "number"
	case resource.StringKind:
		return "string"
	case resource.ArrayKind:
		elems := make([]any, len(v.Array()))
		for i, e := range v.Array() {
			elems[i] = typeOf(e)
		}
		return []any{"tuple", elems}
	case resource.ObjectKind:
		attrs := map[string]any{}
		for k, e := range v.Object() {
			attrs[k] = typeOf(e)
		}
		return []any{"object", attrs}
	}
	return "dynamic"
}
