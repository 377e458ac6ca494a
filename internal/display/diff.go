package display

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// maxValueWidth bounds how much of one value a diff line shows.
const maxValueWidth = 160

// change is one changed property of a step, ready to render.
type change struct {
	path     string
	kind     resource.DiffKind
	old, new resource.Value
	replaces bool
}

// changes lists the property changes of a step: the engine's detailed
// diff when it gave one, else a comparison of the recorded properties;
// every property added for a create, removed for a delete.
func changes(e engine.Event) []change {
	olds, news := properties(e.Op, e.Old), properties(e.Op, e.New)
	d := e.Diff
	switch {
	case e.Op == engine.OpRefresh && e.New == nil:
		return nil // deleted outside plinth: the message says so, property by property is noise
	case e.Old == nil && e.New != nil:
		d = allPaths(news, resource.DiffAdd)
	case e.New == nil && e.Old != nil:
		d = allPaths(olds, resource.DiffDelete)
	case d == nil && e.Old != nil && e.New != nil:
		d = resource.DiffObjects(olds, news, nil)
	}
	out := make([]change, 0, len(d))
	for _, p := range d.Paths() {
		pd := d[p]
		c := change{path: p, kind: pd.Kind, replaces: pd.Replace || slices.Contains(e.ReplaceKeys, rootOf(p))}
		c.old = oldValue(e, olds, p, pd)
		c.new = newValue(e, news, p, pd)
		out = append(out, c)
	}
	return out
}

// oldValue is what a changed property was. A provider's detailed diff
// that is not an input diff compares the new inputs with the recorded
// state (the outputs), as after a refresh found drift: the old value is
// then the recorded output, else the new value would be shown replacing
// itself.
func oldValue(e engine.Event, olds resource.Object, path string, pd resource.PropertyDiff) resource.Value {
	if e.Diff != nil && !pd.InputDiff && e.Op != engine.OpRefresh && e.Old != nil {
		if v, ok := lookup(e.Old.Outputs, path); ok {
			return v
		}
	}
	v, _ := lookup(olds, path)
	return v
}

// newValue is what a changed property becomes: its new input, or, for a
// property the provider computes (its detailed diff is not an input
// diff), the new output, which a preview may not know yet. Without this a
// replaced file's new checksum showed as null.
func newValue(e engine.Event, news resource.Object, path string, pd resource.PropertyDiff) resource.Value {
	if v, ok := lookup(news, path); ok || e.Diff == nil || pd.InputDiff || pd.Kind == resource.DiffDelete || e.New == nil || e.Op == engine.OpRefresh {
		return v
	}
	if v, ok := lookup(e.New.Outputs, path); ok {
		return v
	}
	if e.Preview {
		return resource.Unknown()
	}
	return resource.Null()
}

// properties are what a step's diff is about: the outputs for a refresh
// (drift is in what the provider reads back), the inputs otherwise.
func properties(op engine.StepOp, r *state.Resource) resource.Object {
	if r == nil {
		return nil
	}
	if op == engine.OpRefresh {
		return r.Outputs
	}
	return r.Inputs
}

func allPaths(o resource.Object, kind resource.DiffKind) resource.DetailedDiff {
	d := resource.DetailedDiff{}
	for k := range o {
		if !o[k].IsNull() {
			d[resource.PropertyPath{k}.String()] = resource.PropertyDiff{Kind: kind}
		}
	}
	return d
}

func lookup(o resource.Object, path string) (resource.Value, bool) {
	if o == nil {
		return resource.Null(), false
	}
	p, err := resource.ParsePath(path)
	if err != nil {
		return resource.Null(), false
	}
	return p.Get(resource.NewObject(o))
}

// rootOf returns the top-level property of a path: "a" for "a.b[0]".
func rootOf(path string) string {
	p, err := resource.ParsePath(path)
	if err != nil || len(p) == 0 {
		return path
	}
	if k, ok := p[0].(string); ok {
		return k
	}
	return path
}

var diffSymbols = map[resource.DiffKind]string{resource.DiffAdd: "+", resource.DiffUpdate: "~", resource.DiffDelete: "-"}
var diffColours = map[resource.DiffKind]colour{resource.DiffAdd: colourGreen, resource.DiffUpdate: colourYellow, resource.DiffDelete: colourRed}

// diffLines renders changes one per line: "+ path: new", "~ path: old =>
// new", "- path: old", marked when the change forces a replacement.
func (p painter) diffLines(cs []change, indent string) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		var b strings.Builder
		b.WriteString(indent)
		b.WriteString(p.paint(diffColours[c.kind], diffSymbols[c.kind]+" "+c.path))
		b.WriteString(": ")
		switch c.kind {
		case resource.DiffAdd:
			b.WriteString(Value(c.new))
		case resource.DiffDelete:
			b.WriteString(Value(c.old))
		default:
			b.WriteString(Value(c.old) + " => " + Value(c.new))
		}
		if c.replaces {
			b.WriteString(p.paint(colourMagenta, " (forces replacement)"))
		}
		out = append(out, b.String())
	}
	return out
}

// diffSummary renders changes on one line: "[diff: ~content, +mode]",
// followed by "[forces replacement: path]" when some force a replacement.
func diffSummary(cs []change) string {
	if len(cs) == 0 {
		return ""
	}
	parts := make([]string, len(cs))
	var forcing []string
	for i, c := range cs {
		parts[i] = diffSymbols[c.kind] + c.path
		if c.replaces {
			forcing = append(forcing, c.path)
		}
	}
	s := "[diff: " + strings.Join(parts, ", ") + "]"
	if len(forcing) > 0 {
		s += " [forces replacement: " + strings.Join(forcing, ", ") + "]"
	}
	return s
}

// Value renders a value for people: secrets as [secret] wherever they
// are, unknowns as [unknown], long values cut short.
func Value(v resource.Value) string {
	s := v.String()
	if utf8.RuneCountInString(s) <= maxValueWidth {
		return s
	}
	r := []rune(s)
	return string(r[:maxValueWidth-1]) + "…"
}
