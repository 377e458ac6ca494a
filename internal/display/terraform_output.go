package display

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// tfOutputLines render a stack output after an update as terraform's
// "Outputs:" list does: "name = value", names not aligned, lists and
// objects one element a line, nested ones too, a string of several
// lines as a heredoc, and, where the output's type (raw, in cty's JSON
// type syntax; nil if unknown) makes a value a list, set or map,
// terraform's tolist(...), toset(...), tomap(...) around it.
func tfOutputLines(name string, v resource.Value, raw json.RawMessage) []string {
	if v.IsSecret() {
		return []string{name + " = <sensitive>"}
	}
	return strings.Split(name+" = "+tfFormat(v, 0, parseTFType(raw)), "\n")
}

// tfType is a value's type, as far as an output's display needs it: its
// kind (list, set, map, object, tuple, or a primitive's name) and the
// types of what it holds.
type tfType struct {
	kind  string
	elem  *tfType            // a list's, set's or map's elements
	attrs map[string]*tfType // an object's attributes
	elems []*tfType          // a tuple's elements
}

// parseTFType reads a type in cty's JSON syntax ("string", ["list",
// "string"], ["object", {...}]); nil when raw is empty or not one.
func parseTFType(raw json.RawMessage) *tfType {
	var name string
	if json.Unmarshal(raw, &name) == nil {
		return &tfType{kind: name}
	}
	var pair []json.RawMessage
	if json.Unmarshal(raw, &pair) != nil || len(pair) < 2 || json.Unmarshal(pair[0], &name) != nil {
		return nil
	}
	t := &tfType{kind: name}
	switch name {
	case "list", "set", "map":
		t.elem = parseTFType(pair[1])
	case "object":
		var attrs map[string]json.RawMessage
		_ = json.Unmarshal(pair[1], &attrs)
		t.attrs = map[string]*tfType{}
		for k, a := range attrs {
			t.attrs[k] = parseTFType(a)
		}
	case "tuple":
		var elems []json.RawMessage
		_ = json.Unmarshal(pair[1], &elems)
		for _, e := range elems {
			t.elems = append(t.elems, parseTFType(e))
		}
	}
	return t
}

// member is the type of element i (key k) of a value of type t.
func (t *tfType) member(i int, k string) *tfType {
	switch {
	case t == nil:
		return nil
	case t.elem != nil:
		return t.elem
	case t.attrs != nil:
		return t.attrs[k]
	case i < len(t.elems):
		return t.elems[i]
	}
	return nil
}

// tfConversions are terraform's wrappers around a list, set or map.
var tfConversions = map[string]string{"list": "tolist", "set": "toset", "map": "tomap"}

// tfFormat writes a value of type t (nil if unknown) as terraform
// writes an output's value, its nested lines indented by indent spaces
// more than the first.
func tfFormat(v resource.Value, indent int, t *tfType) string {
	text := tfFormatValue(v, indent, t)
	if t != nil && collection(v) {
		if f, ok := tfConversions[t.kind]; ok {
			return f + "(" + text + ")"
		}
	}
	return text
}

func tfFormatValue(v resource.Value, indent int, t *tfType) string {
	pad := strings.Repeat(" ", indent)
	switch v.Kind() {
	case resource.SecretKind:
		return tfSensitive
	case resource.UnknownKind:
		return tfKnownAfterApply
	case resource.StringKind:
		if s := v.Str(); strings.Contains(s, "\n") {
			return tfHeredoc(s, indent)
		}
	case resource.ArrayKind:
		if len(v.Array()) == 0 {
			return "[]"
		}
		var b strings.Builder
		b.WriteString("[")
		for i, el := range v.Array() {
			b.WriteString("\n" + pad + "  " + tfFormat(el, indent+2, t.member(i, "")) + ",")
		}
		return b.String() + "\n" + pad + "]"
	case resource.ObjectKind:
		o := v.Object()
		if len(o) == 0 {
			return "{}"
		}
		keys := o.Keys()
		sort.Strings(keys)
		var b strings.Builder
		b.WriteString("{")
		for _, k := range keys {
			b.WriteString("\n" + pad + "  " + strconv.Quote(k) + " = " + tfFormat(o[k], indent+2, t.member(0, k)))
		}
		return b.String() + "\n" + pad + "}"
	}
	return tfInline(v)
}

// tfHeredoc writes a string of several lines as a heredoc (<<EOT, or
// <<-EOT indented inside a list or object), with a delimiter that no
// line of the string is.
func tfHeredoc(s string, indent int) string {
	lines := strings.Split(s, "\n")
	delim := "EOT"
	for clash := true; clash; {
		clash = false
		for _, l := range lines {
			if strings.TrimSpace(l) == delim {
				delim, clash = delim+"_", true
				break
			}
		}
	}
	pad := strings.Repeat(" ", indent)
	op := "<<"
	if indent > 0 {
		op = "<<-"
	}
	var b strings.Builder
	b.WriteString(op + delim)
	for _, l := range lines {
		b.WriteString("\n" + pad + l)
	}
	return b.String() + "\n" + pad + delim
}
