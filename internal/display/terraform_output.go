package display

import (
	"sort"
	"strconv"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// tfOutputLines render a stack output after an update as terraform's
// "Outputs:" list does: "name = value", names not aligned, lists and
// objects one element a line, nested ones too, and a string of several
// lines as a heredoc. (terraform also wraps lists, sets and maps of a
// known type in tolist(...), toset(...), tomap(...); plinth's outputs do
// not keep those types.)
func tfOutputLines(name string, v resource.Value) []string {
	if v.IsSecret() {
		return []string{name + " = <sensitive>"}
	}
	return strings.Split(name+" = "+tfFormat(v, 0), "\n")
}

// tfFormat writes a value as terraform writes an output's value, its
// nested lines indented by indent spaces more than the first.
func tfFormat(v resource.Value, indent int) string {
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
		for _, el := range v.Array() {
			b.WriteString("\n" + pad + "  " + tfFormat(el, indent+2) + ",")
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
			b.WriteString("\n" + pad + "  " + strconv.Quote(k) + " = " + tfFormat(o[k], indent+2))
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
