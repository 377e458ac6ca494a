package yaml

import (
	"fmt"
	"strings"

	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// fail makes a diagnostic at an expression.
func (r *run) fail(e *expr, summary, detail string, args ...any) error {
	return program.Diagnostic{Summary: summary, Detail: fmt.Sprintf(detail, args...),
		File: r.p.file, Line: e.at.Line, Column: e.at.Column, Path: e.where}
}

func (r *run) failRef(rf *ref, summary, detail string, args ...any) error {
	return program.Diagnostic{Summary: summary, Detail: fmt.Sprintf(detail, args...),
		File: r.p.file, Line: rf.at.Line, Column: rf.at.Column, Path: rf.where}
}

// eval computes an expression. Every node it references has settled.
func (r *run) eval(e *expr) (resource.Value, error) {
	switch e.kind {
	case exprLiteral:
		return e.lit, nil
	case exprRef:
		return r.lookup(e.ref)
	case exprInterp:
		return r.interpolate(e)
	case exprList:
		out := make([]resource.Value, len(e.elems()))
		for i, el := range e.elems() {
			v, err := r.eval(el)
			if err != nil {
				return resource.Value{}, err
			}
			out[i] = v
		}
		return resource.NewArray(out...), nil
	case exprObject:
		return r.evalObject(e)
	case exprCall:
		return r.evalCall(e)
	}
	return resource.Value{}, fmt.Errorf("program: unhandled expression kind %d", e.kind)
}

func (r *run) evalObject(e *expr) (resource.Value, error) {
	o := make(resource.Object, len(e.keys()))
	for i, k := range e.keys() {
		v, err := r.eval(e.vals()[i])
		if err != nil {
			return resource.Value{}, err
		}
		o[k] = v
	}
	return resource.NewObject(o), nil
}

func (r *run) evalCall(e *expr) (resource.Value, error) {
	if e.call() != nil {
		return r.invoke(e)
	}
	arg, err := r.eval(e.arg())
	if err != nil {
		return resource.Value{}, err
	}
	return r.fns[e.fn()].run(r, e, arg)
}

// interpolate builds a string from text and references. An unknown part
// makes the whole string unknown; a secret part makes it secret.
func (r *run) interpolate(e *expr) (resource.Value, error) {
	var b strings.Builder
	var used []resource.Value
	unknown := false
	for _, p := range e.parts {
		if p.ref == nil {
			b.WriteString(p.text)
			continue
		}
		v, err := r.lookup(p.ref)
		if err != nil {
			return resource.Value{}, err
		}
		used = append(used, v)
		if v.SecretElement().Kind() == resource.ReferenceKind {
			_, err := r.text(p.ref, v.SecretElement())
			return resource.Value{}, err
		}
		if v.ContainsUnknowns() {
			unknown = true
			continue
		}
		s, err := r.text(p.ref, v.SecretElement())
		if err != nil {
			return resource.Value{}, err
		}
		b.WriteString(s)
	}
	if unknown {
		return resource.Sticky(resource.Unknown(), used...), nil
	}
	return resource.Sticky(resource.NewString(b.String()), used...), nil
}

func (r *run) text(rf *ref, v resource.Value) (string, error) {
	if v.Kind() == resource.ReferenceKind {
		return "", r.failRef(rf, "Cannot interpolate a resource",
			"%s is a whole resource, which has no text form. Write ${%s.id} for its ID or ${%s.urn} for its URN.", rf.text, rf.root, rf.root)
	}
	s, err := toText(v)
	if err != nil {
		return "", r.failRef(rf, "Cannot interpolate value", "%s is inside a string, but %s.", rf.text, err)
	}
	return s, nil
}

// lookup reads a reference: a resource (or its id, urn or a property),
// a variable, or a config value.
func (r *run) lookup(rf *ref) (resource.Value, error) {
	j, ok := r.p.index[rf.root]
	if !ok {
		return r.walk(rf, r.config[rf.root], nil)
	}
	if n := r.p.nodes[j]; n.kind == nodeResource {
		return r.resourceValue(rf, n.res, &r.state[j])
	}
	return r.walk(rf, r.state[j].value, nil)
}

// resourceValue reads ${res}, ${res.id}, ${res.urn} or ${res.prop...}. A
// property the resource does not report is null, or unknown while the
// resource's ID is unknown (a preview of its creation).
func (r *run) resourceValue(rf *ref, d *resourceDecl, st *nodeState) (resource.Value, error) {
	if len(rf.path) == 0 {
		ref := resource.Reference{URN: st.registered().URN}
		if !d.component {
			id := st.registered().ID
			ref.ID = &id
		}
		return resource.NewReference(ref), nil
	}
	if len(rf.path) == 1 {
		switch rf.path[0] {
		case "id":
			if d.component {
				return resource.Null(), nil
			}
			return st.registered().ID, nil
		case "urn":
			return resource.NewString(string(st.registered().URN)), nil
		}
	}
	outputs := st.registered().Outputs
	if d.component && len(outputs) == 0 {
		outputs = st.inputs
	}
	missing := resource.Null()
	if !d.component && st.registered().ID.ContainsUnknowns() {
		missing = resource.Unknown()
	}
	return r.walk(rf, resource.NewObject(outputs), &missing)
}

// walk follows the reference's path inside v. A secret along the way makes
// the result secret; an unknown makes it unknown. With missing set, an
// absent property or a null along the way yields *missing; otherwise it
// is an error.
func (r *run) walk(rf *ref, v resource.Value, missing *resource.Value) (resource.Value, error) {
	secret := false
	for k, el := range rf.path {
		if v.IsSecret() {
			secret, v = true, v.SecretElement()
		}
		if v.IsUnknown() {
			break
		}
		next, ok := step(v, el)
		if ok {
			v = next
			continue
		}
		if missing != nil && (v.IsNull() || v.Kind() == resource.ObjectKind) {
			v = *missing
			break
		}
		return resource.Value{}, r.missingProperty(rf, v, k, secret)
	}
	if secret {
		v = resource.MakeSecret(v)
	}
	return v, nil
}

func step(v resource.Value, el any) (resource.Value, bool) {
	switch el := el.(type) {
	case string:
		w, ok := v.Object()[el]
		return w, ok && v.Kind() == resource.ObjectKind
	case int:
		a := v.Array()
		if el < len(a) {
			return a[el], true
		}
	}
	return resource.Value{}, false
}

// missingProperty reports a path that leads nowhere; inside a secret it
// does not list the keys that are there.
func (r *run) missingProperty(rf *ref, v resource.Value, k int, secret bool) error {
	at := rf.root + prefixPath(rf.path[:k])
	switch el := rf.path[k].(type) {
	case int:
		if v.Kind() == resource.ArrayKind {
			return r.failRef(rf, "Index out of range", "%s reads item %d of %s, a list of %s.", rf.text, el, at, plural(len(v.Array()), "item"))
		}
		return r.failRef(rf, "Not a list", "%s reads item %d of %s, which is %s, not a list.", rf.text, el, at, describeValue(v))
	default:
		if v.Kind() == resource.ObjectKind && secret {
			return r.failRef(rf, "Unknown property", "%s reads property %q of %s, a secret object without it.", rf.text, el, at)
		}
		if v.Kind() == resource.ObjectKind {
			keys := v.Object().Keys()
			return r.failRef(rf, "Unknown property", "%s reads property %q of %s, which has no such property.%s It has %s.",
				rf.text, el, at, suggest(fmt.Sprint(el), keys), quoteList(keys, 20))
		}
		return r.failRef(rf, "Not an object", "%s reads property %q of %s, which is %s, not an object.", rf.text, el, at, describeValue(v))
	}
}

func prefixPath(p resource.PropertyPath) string {
	if len(p) == 0 {
		return ""
	}
	s := p.String()
	if strings.HasPrefix(s, "[") {
		return s
	}
	return "." + s
}
