package tfstate

import "github.com/plinth-iac/plinth/sdk/resource"

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
// {"value": V, "type": T}, with T inferred from V as for outputs.
func wrapDynamic(typ string, attrs map[string]any, o resource.Object) {
	for _, name := range dynamicAttrs[typ] {
		g, ok := attrs[name]
		if !ok || g == nil {
			continue
		}
		attrs[name] = map[string]any{"value": g, "type": typeOf(o[name])}
	}
}
