package tfstate

import (
	"encoding/json"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// outputType is the type to write for an output value: the first of
// the recorded types (the one a previous state gave it, then the one
// plinth's state records: a list, a map or a set cannot be told from a
// tuple or an object by the value alone) that the value has; else the
// type inferred from the value.
func outputType(v resource.Value, recorded ...json.RawMessage) json.RawMessage {
	for _, t := range recorded {
		var ty any
		if len(t) > 0 && json.Unmarshal(t, &ty) == nil && conforms(v, ty) {
			return t
		}
	}
	raw, _ := json.Marshal(typeOf(v))
	return raw
}

// conforms reports whether v is a value of the Terraform type ty, written
// as in a state's outputs ("string", ["list", "string"], ...).
func conforms(v resource.Value, ty any) bool {
	v = v.SecretElement()
	if v.IsNull() {
		return true
	}
	switch t := ty.(type) {
	case string:
		return conformsPrimitive(v, t)
	case []any:
		if len(t) != 2 {
			return false
		}
		kind, _ := t[0].(string)
		return conformsComplex(v, kind, t[1])
	}
	return false
}

func conformsPrimitive(v resource.Value, t string) bool {
	switch t {
	case "string":
		return v.Kind() == resource.StringKind
	case "number":
		return v.Kind() == resource.NumberKind
	case "bool":
		return v.Kind() == resource.BoolKind
	}
	return false // "dynamic" is never written for an output
}

func conformsComplex(v resource.Value, kind string, arg any) bool {
	switch kind {
	case "list", "set":
		return v.Kind() == resource.ArrayKind && allConform(v.Array(), arg)
	case "map":
		if v.Kind() != resource.ObjectKind {
			return false
		}
		vals := make([]resource.Value, 0, len(v.Object()))
		for _, e := range v.Object() {
			vals = append(vals, e)
		}
		return allConform(vals, arg)
	case "tuple":
		elems, ok := arg.([]any)
		if !ok || v.Kind() != resource.ArrayKind || len(elems) != len(v.Array()) {
			return false
		}
		for i, e := range v.Array() {
			if !conforms(e, elems[i]) {
				return false
			}
		}
		return true
	case "object":
		attrs, ok := arg.(map[string]any)
		if !ok || v.Kind() != resource.ObjectKind || len(attrs) != len(v.Object()) {
			return false
		}
		for k, e := range v.Object() {
			if at, ok := attrs[k]; !ok || !conforms(e, at) {
				return false
			}
		}
		return true
	}
	return false
}

func allConform(vals []resource.Value, elem any) bool {
	for _, e := range vals {
		if !conforms(e, elem) {
			return false
		}
	}
	return true
}
