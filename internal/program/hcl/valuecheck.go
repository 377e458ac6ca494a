package hcl

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// checkValues checks a resource's or data source's evaluated arguments
// against the types its provider's schema gives them, as terraform does
// when it plans: a value that reaches an argument through a variable, a
// local or another resource's attribute is checked as soon as its type
// is known, at the file:line:col of the argument's expression. Unknown
// values are checked by type only (an unknown string may still become a
// number).
func (r *run) checkValues(rc *resourceConfig, vals map[string]cty.Value) bool {
	props := r.argSchemas[rc]
	if props == nil {
		return true
	}
	return r.report(checkEvaluated(rc.body, props, vals))
}

// checkEvaluated checks one body's evaluated values: its attributes, and
// the attributes of the nested blocks written out (not made by dynamic
// blocks, whose content the static check has seen).
func checkEvaluated(body hcl.Body, props map[string]schema.Property, vals map[string]cty.Value) hcl.Diagnostics {
	var ds hcl.Diagnostics
	for _, name := range sortedValues(vals) {
		p, ok := props[name]
		if !ok {
			continue
		}
		if ty, ok := ctyType(p.Type); ok {
			if d := convertible(body, name, vals[name], ty); d != nil {
				ds = append(ds, d)
			}
			continue
		}
		ds = append(ds, checkBlocks(body, name, p.Type, vals[name])...)
	}
	return ds
}

// convertible reports a value that cannot be converted to an argument's
// type.
func convertible(body hcl.Body, name string, v cty.Value, ty cty.Type) *hcl.Diagnostic {
	plain, marks := v.UnmarkDeep()
	_, err := convert.Convert(plain, ty)
	if err == nil {
		return nil
	}
	rng, expr := exprRange(body, name)
	d := errorAt(rng, "Incorrect attribute value type", "Inappropriate value for attribute %q: %s.", name, err)
	if expr != nil && len(expr.Variables()) > 0 && len(marks) == 0 && plain.IsKnown() && plain.Type().IsPrimitiveType() && !plain.IsNull() {
		d.Detail += " The expression's value is " + display(plain) + "."
	}
	return d
}

// checkBlocks checks the nested blocks of one type written out in a
// body, element by element of their evaluated value.
func checkBlocks(body hcl.Body, name string, t schema.Type, v cty.Value) hcl.Diagnostics {
	sb, ok := body.(*hclsyntax.Body)
	if t.Elem != nil && (t.Kind == schema.TypeArray || t.Kind == schema.TypeMap) {
		t = *t.Elem
	}
	if !ok || t.Kind != schema.TypeObject || t.Properties == nil {
		return nil
	}
	var blocks []*hclsyntax.Block
	for _, b := range sb.Blocks {
		if b.Type == "dynamic" && len(b.Labels) == 1 && b.Labels[0] == name {
			return nil // the values' order no longer follows the blocks'
		}
		if b.Type == name {
			blocks = append(blocks, b)
		}
	}
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() || !v.CanIterateElements() || v.LengthInt() != len(blocks) {
		return nil
	}
	var ds hcl.Diagnostics
	for i, it := 0, v.ElementIterator(); it.Next(); i++ {
		_, ev := it.Element()
		ev, _ = ev.Unmark()
		if ev.IsKnown() && !ev.IsNull() && ev.Type().IsObjectType() {
			ds = append(ds, checkEvaluated(blocks[i].Body, t.Properties, ev.AsValueMap())...)
		}
	}
	return ds
}

// exprRange is where an argument's expression is in a body.
func exprRange(body hcl.Body, name string) (hcl.Range, hcl.Expression) {
	if sb, ok := body.(*hclsyntax.Body); ok {
		if a, ok := sb.Attributes[name]; ok {
			return a.Expr.Range(), a.Expr
		}
		return sb.MissingItemRange(), nil
	}
	attrs, _ := body.JustAttributes()
	if a, ok := attrs[name]; ok {
		return a.Expr.Range(), a.Expr
	}
	return body.MissingItemRange(), nil
}

// display writes a primitive value as terraform quotes it.
func display(v cty.Value) string {
	switch v.Type() {
	case cty.String:
		return fmt.Sprintf("%q", v.AsString())
	case cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case cty.Bool:
		return fmt.Sprint(v.True())
	}
	return v.GoString()
}

func sortedValues(vals map[string]cty.Value) []string {
	names := make([]string, 0, len(vals))
	for n := range vals {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// withComputed is a deferred data source read's planned value, as
// terraform shows it: its arguments, and every computed attribute the
// configuration leaves unset unknown until the read (sensitive ones
// secret).
func (r *run) withComputed(rc *resourceConfig, args resource.Object) resource.Object {
	outs := r.resultSchemas[rc]
	if outs == nil {
		return args
	}
	ins := r.argSchemas[rc]
	out := resource.Object{}
	for k, v := range args {
		out[k] = v
	}
	for name, p := range outs {
		in, settable := ins[name]
		if v, set := args[name]; set && !v.IsNull() || settable && !in.Computed {
			continue
		}
		u := resource.Unknown()
		if p.Secret {
			u = resource.MakeSecret(u)
		}
		out[name] = u
	}
	return out
}
