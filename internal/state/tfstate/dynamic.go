package tfstate

import (
	"encoding/json"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// dynamicAttrs are the attributes of dynamic type (cty.DynamicPseudoType)
// of the types plinth's built-in terraform provider implements. Terraform
// writes such a value to state as {"value": V, "type": T}; plinth stores
// V itself, so adopt unwraps them and export wraps them again.
var dynamicAttrs = map[string][]string{
	"terraform_data": {"input", "output", "triggers_replace"},
}

// unwrapDynamic replaces each dynamic attribute's {"value", "type"} object
// with its value.
func unwrapDynamic(typ string, o resource.Object) resource.Object {
	for _, name := range dynamicAttrs[typ] {
		v, ok := o[name]
		if !ok || v.Kind() != resource.ObjectKind {
			continue
		}
		w := v.Object()
		inner, hasValue := w["value"]
		if _, hasType := w["type"]; len(w) == 2 && hasValue && hasType {
			o[name] = inner
		}
	}
	return o
}

// wrapDynamic writes each non-null dynamic attribute as Terraform does,
// {"value": V, "type": T}: T is the type previous gives the attribute if
// V still has it (a list of strings cannot be told from a tuple by its
// value, and terraform plans an update when the type differs), else the
// type inferred from V as for outputs.
func wrapDynamic(typ string, attrs map[string]any, o resource.Object, previous map[string]json.RawMessage) {
	for _, name := range dynamicAttrs[typ] {
		g, ok := attrs[name]
		if !ok || g == nil {
			continue
		}
		attrs[name] = map[string]any{"value": g, "type": outputType(o[name], previous[name])}
	}
}

// DynamicTypes collects the types a state records for the dynamic
// attributes of its current resource instances (terraform_data's input
// and output), by instance address and attribute name, for an export
// that replaces the state to keep (ExportOptions.DynamicTypes).
func DynamicTypes(st *State) map[string]map[string]json.RawMessage {
	out := map[string]map[string]json.RawMessage{}
	for _, r := range st.Resources {
		names := dynamicAttrs[r.Type]
		base, err := r.address()
		if len(names) == 0 || err != nil || r.Mode != "managed" {
			continue
		}
		for _, in := range r.Instances {
			key, err := instanceKey(in.IndexKey)
			if err != nil || in.Deposed != "" {
				continue
			}
			if types := recordedTypes(in.Attributes, names); len(types) > 0 {
				out[base+key] = types
			}
		}
	}
	return out
}

// recordedTypes reads the "type" of each named {"value", "type"}
// attribute of an instance's attributes.
func recordedTypes(attrs json.RawMessage, names []string) map[string]json.RawMessage {
	var raw map[string]json.RawMessage
	if json.Unmarshal(attrs, &raw) != nil {
		return nil
	}
	types := map[string]json.RawMessage{}
	for _, n := range names {
		var w struct {
			Type json.RawMessage `json:"type"`
		}
		if v, ok := raw[n]; ok && json.Unmarshal(v, &w) == nil && len(w.Type) > 0 {
			types[n] = w.Type
		}
	}
	return types
}
