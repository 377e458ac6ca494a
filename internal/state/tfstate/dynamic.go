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

// dynamicSource names the input a dynamic attribute is set from, where
// the provider sets one so: terraform_data's output is its input, of the
// input's type.
var dynamicSource = map[string]string{"output": "input"}

// sensitiveSource is the object whose secret paths an instance's
// sensitive_attributes are written from: its attributes, except for
// terraform_data, whose output terraform never marks (the provider sets
// it, and its schema does not mark it), and whose dynamic inputs are
// sensitive where the program's arguments were (inputs: input.a, not
// all of input as plinth's built-in provider records it).
func sensitiveSource(typ string, attrs, inputs resource.Object) resource.Object {
	if typ != "terraform_data" {
		return attrs
	}
	o := attrs.Copy()
	for _, name := range dynamicAttrs[typ] {
		v, ok := o[name]
		if !ok {
			continue
		}
		plain, _ := v.Unsecret()
		if _, setByProvider := dynamicSource[name]; setByProvider {
			o[name] = plain
			continue
		}
		// The argument, if the record still holds the value it gave.
		if in, ok := inputs[name]; ok {
			if inPlain, _ := in.Unsecret(); inPlain.Equal(plain) {
				o[name] = in
			}
		}
	}
	return o
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
// type the resource's record gives the input it is (or is set from), if
// V has it (state.Resource.InputTypes), else the type inferred from V as
// for outputs.
func wrapDynamic(typ string, attrs map[string]any, o resource.Object, previous, recorded map[string]json.RawMessage) {
	for _, name := range dynamicAttrs[typ] {
		g, ok := attrs[name]
		if !ok || g == nil {
			continue
		}
		rec := recorded[name]
		if src, ok := dynamicSource[name]; ok {
			rec = recorded[src]
		}
		attrs[name] = map[string]any{"value": g, "type": outputType(o[name], previous[name], rec)}
	}
}

// adoptedInputTypes are the types a Terraform state records for an
// instance's dynamic inputs (terraform_data's input and
// triggers_replace), kept in its record (state.Resource.InputTypes) so
// that an export writes them again; nil if none.
func adoptedInputTypes(typ string, attrs json.RawMessage) map[string]json.RawMessage {
	types := recordedTypes(attrs, dynamicAttrs[typ])
	for name := range dynamicSource {
		delete(types, name)
	}
	if len(types) == 0 {
		return nil
	}
	return types
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
