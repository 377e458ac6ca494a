package tfserve

import (
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// diag is a diagnostic in neither protocol's terms; server5.go and
// server6.go convert it.
type diag struct {
	warning bool
	summary string
	detail  string
	path    *tftypes.AttributePath
}

type diags []diag

func (ds diags) hasErrors() bool {
	for _, d := range ds {
		if !d.warning {
			return true
		}
	}
	return false
}

// errorDiag turns an SDK error from method on a resource type (or
// function, or the provider when what is empty) into a diagnostic. A
// recovered panic names the method and type and says it is a bug.
func errorDiag(method, what string, err error) diag {
	var pe *provider.PanicError
	if errors.As(err, &pe) {
		return diag{summary: "Provider " + pe.Provider + " panicked",
			detail: fmt.Sprintf("The provider panicked in %s%s: %v. This is a bug in the provider; please report it to its authors with this message.",
				method, forWhat(what), pe.Value)}
	}
	return diag{summary: fmt.Sprintf("%s failed%s", method, forWhat(what)), detail: err.Error()}
}

func forWhat(what string) string {
	if what == "" {
		return ""
	}
	return " for " + what
}

// failureDiags turns check failures into diagnostics on the attribute
// they name, in Terraform's names.
func failureDiags(fs []provider.CheckFailure, t *vtype, what string) diags {
	out := make(diags, 0, len(fs))
	for _, f := range fs {
		d := diag{summary: "Invalid configuration for " + what, detail: f.Reason}
		if f.Property != "" {
			d.path = pointable(attributePath(f.Property, t), t)
			d.summary = "Invalid value for " + what
			d.detail = fmt.Sprintf("%s: %s.", tfPathString(f.Property, t), trimDot(f.Reason))
		}
		out = append(out, d)
	}
	return out
}

func trimDot(s string) string {
	if len(s) > 0 && s[len(s)-1] == '.' {
		return s[:len(s)-1]
	}
	return s
}

// attributePath converts an SDK property path ("rules[0].port") into a
// Terraform attribute path, renaming object attributes on the way.
func attributePath(property string, t *vtype) *tftypes.AttributePath {
	p, err := resource.ParsePath(property)
	if err != nil {
		return tftypes.NewAttributePath().WithAttributeName(snake(property))
	}
	out := tftypes.NewAttributePath()
	for _, step := range p {
		switch s := step.(type) {
		case string:
			if t != nil && t.kind == kindObject {
				a := t.attrNamed(s)
				if a == nil {
					return out.WithAttributeName(snake(s))
				}
				out, t = out.WithAttributeName(a.tf), a.t
				continue
			}
			out, t = out.WithElementKeyString(s), elemOf(t)
		case int:
			if t != nil && t.kind == kindSet {
				return out // a set's elements have no index in Terraform's paths
			}
			out, t = out.WithElementKeyInt(s), elemOf(t)
		default:
			return out
		}
	}
	return out
}

// pointable cuts a diagnostic's attribute path where Terraform stops
// finding it in the configuration. Terraform follows a path through nested
// blocks only; inside a nested attribute (protocol 6's nested objects) it
// cannot, and would point at the whole resource block. Cut after the
// nested attribute and at most one index into it, Terraform points at
// that attribute's value (or the list element or map entry), the nearest
// place it can show; the detail still names the full path.
func pointable(p *tftypes.AttributePath, t *vtype) *tftypes.AttributePath {
	out := tftypes.NewAttributePath()
	steps := p.Steps()
	for i := 0; i < len(steps); i++ {
		name, ok := steps[i].(tftypes.AttributeName)
		if !ok || t == nil || t.kind != kindObject {
			return tftypes.NewAttributePathWithSteps(steps)
		}
		out = out.WithAttributeName(string(name))
		a := t.byTF[string(name)]
		if a == nil || a.t.nestedObject() == nil {
			return tftypes.NewAttributePathWithSteps(steps)
		}
		if !a.block {
			if a.t.kind != kindObject && i+1 < len(steps) {
				return tftypes.NewAttributePathWithSteps(steps[:i+2])
			}
			return out
		}
		t = a.t.nestedObject()
		if a.t.kind != kindObject && i+1 < len(steps) {
			i++
			out = tftypes.NewAttributePathWithSteps(steps[:i+1])
		}
	}
	return out
}

// tfPathString writes a property path as Terraform users write it.
func tfPathString(property string, t *vtype) string {
	p, err := resource.ParsePath(property)
	if err != nil {
		return snake(property)
	}
	s := ""
	for _, step := range p {
		switch st := step.(type) {
		case string:
			if t != nil && t.kind == kindObject {
				name := snake(st)
				if a := t.attrNamed(st); a != nil {
					name, t = a.tf, a.t
				} else {
					t = nil
				}
				if s != "" {
					s += "."
				}
				s += name
				continue
			}
			s, t = s+fmt.Sprintf("[%q]", st), elemOf(t)
		case int:
			if t == nil || t.kind != kindSet {
				s += fmt.Sprintf("[%d]", st) // a set's elements have no place to name
			}
			t = elemOf(t)
		}
	}
	return s
}

// attrNamed finds an object's attribute by its SDK property name.
func (t *vtype) attrNamed(name string) *attr {
	for _, a := range t.attrs {
		if a.name == name {
			return a
		}
	}
	return nil
}
