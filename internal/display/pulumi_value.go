package display

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// pulumiValueLines renders a value as pulumi prints property and output
// values: strings quoted, secrets as [secret], unknowns as [unknown],
// and objects and arrays over several lines, their members indented four
// columns deeper than indent ("{", "    key: value", "}"). The first
// line carries no indent: it follows a key.
func pulumiValueLines(v resource.Value, indent string) []string {
	switch v.Kind() {
	case resource.ObjectKind:
		return pulumiObjectLines(v.Object(), indent)
	case resource.ArrayKind:
		return pulumiArrayLines(v.Array(), indent)
	case resource.StringKind:
		if d, ok := decodedJSON(v.Str()); ok {
			lines := pulumiValueLines(d, indent)
			return append([]string{"(json) " + lines[0]}, lines[1:]...)
		}
	}
	return []string{pulumiScalar(v)}
}

// decodedJSON is s decoded, when all of s (spaces around it aside) is a
// JSON object or array: pulumi shows such a string as the value it holds,
// marked "(json) ", as it shows the output of fn::toJSON or
// JSON.stringify.
func decodedJSON(s string) (resource.Value, bool) {
	t := strings.TrimSpace(s)
	if t == "" || t[0] != '{' && t[0] != '[' {
		return resource.Value{}, false
	}
	var x any
	if err := json.Unmarshal([]byte(t), &x); err != nil {
		return resource.Value{}, false
	}
	v, err := resource.FromGo(x)
	return v, err == nil
}

// pulumiScalar renders a value that fits on one line.
func pulumiScalar(v resource.Value) string {
	switch v.Kind() {
	case resource.StringKind:
		// Go's quoting, as pulumi's %q: "a&b" stays as it is (JSON's
		// encoder wrote \u0026), control characters read \x1b, \a.
		return strconv.Quote(v.Str())
	case resource.NullKind:
		return "<null>"
	case resource.SecretKind:
		return "[secret]"
	case resource.UnknownKind:
		return "[unknown]"
	case resource.ObjectKind, resource.ArrayKind:
		return strings.Join(pulumiValueLines(v, ""), " ")
	}
	return v.String()
}

func pulumiObjectLines(o resource.Object, indent string) []string {
	if len(o) == 0 {
		return []string{"{}"}
	}
	lines := []string{"{"}
	lines = append(lines, pulumiKeyLines(o, indent+"    ", nil)...)
	return append(lines, indent+"}")
}

func pulumiArrayLines(a []resource.Value, indent string) []string {
	if len(a) == 0 {
		return []string{"[]"}
	}
	lines := []string{"["}
	for i, e := range a {
		vs := pulumiValueLines(e, indent+"    ")
		lines = append(lines, indent+"    ["+itoa(i)+"]: "+vs[0])
		lines = append(lines, vs[1:]...)
	}
	return append(lines, indent+"]")
}

// pulumiKeyLines renders the members of an object in key order, keys
// padded to the longest ("a   : 1", "bcd: 2"), each line starting with
// indent. keep, if not nil, picks the keys shown; internal keys
// ("__provider") are never shown. The padding counts every key, as
// pulumi's does.
func pulumiKeyLines(o resource.Object, indent string, keep func(string) bool) []string {
	keys := o.Keys()
	sort.Strings(keys)
	width := 0
	for _, k := range keys {
		width = max(width, len(k))
	}
	var lines []string
	for _, k := range keys {
		if keep != nil && !keep(k) || internalKey(k) {
			continue
		}
		vs := pulumiValueLines(o[k], indent)
		lines = append(lines, indent+padRight(k, width)+": "+vs[0])
		lines = append(lines, vs[1:]...)
	}
	return lines
}

// internalKey says whether pulumi hides a key from what it shows: a
// name starting "__" (an SDK's or provider's own bookkeeping).
func internalKey(k string) bool { return strings.HasPrefix(k, "__") }

// padRight pads s with spaces to width characters. Widths are taken in
// bytes (len) and padding counts characters, as pulumi's "%-*s" of a
// width from len does: a key with a multi-byte character is padded more.
func padRight(s string, width int) string {
	n := utf8.RuneCountInString(s)
	if n >= width {
		return s
	}
	return s + strings.Repeat(" ", width-n)
}

// pulumiShown says whether pulumi lists an output it does not mark as
// changed: not an internal key, nor null, "", [] or {}, which it leaves
// out as clutter.
func pulumiShown(k string, v resource.Value) bool {
	if internalKey(k) {
		return false
	}
	switch v.Kind() {
	case resource.NullKind:
		return false
	case resource.StringKind:
		return v.Str() != ""
	case resource.ArrayKind:
		return len(v.Array()) > 0
	case resource.ObjectKind:
		return len(v.Object()) > 0
	}
	return true
}

// pulumiOutputLines renders the Outputs block. With prior outputs known,
// a changed output is marked as pulumi marks it ("  ~ name: old => new",
// "  + name: new", "  - name: old"); onlyChanged (a preview of a stack
// that has outputs) leaves the unchanged ones out.
func pulumiOutputLines(p painter, prior, now resource.Object, changes map[string]resource.DiffKind, onlyChanged bool) []string {
	all := resource.Object{}
	for k, v := range now {
		all[k] = v
	}
	for k := range changes {
		if _, ok := all[k]; !ok && changes[k] == resource.DiffDelete {
			all[k] = prior[k]
		}
	}
	if len(all) == 0 || onlyChanged && len(changes) == 0 {
		return nil
	}
	keys := all.Keys()
	sort.Strings(keys)
	width := 0
	for _, k := range keys {
		width = max(width, len(k))
	}
	lines := []string{"Outputs:"}
	for _, k := range keys {
		kind, changed := changes[k]
		if onlyChanged && !changed || !changed && !pulumiShown(k, all[k]) {
			continue
		}
		lines = append(lines, pulumiOutputLine(p, k, width, kind, changed, prior[k], all[k])...)
	}
	return lines
}

// pulumiOutputLine renders one output: unmarked and indented four
// columns, or marked in the two columns before its name.
func pulumiOutputLine(p painter, name string, width int, kind resource.DiffKind, changed bool, old, cur resource.Value) []string {
	key := padRight(name, width) + ": "
	if !changed {
		vs := pulumiValueLines(cur, "    ")
		return append([]string{"    " + key + vs[0]}, vs[1:]...)
	}
	mark := p.paint(diffColours[kind], diffSymbols[kind]+" "+key)
	switch kind {
	case resource.DiffAdd:
		vs := pulumiValueLines(cur, "    ")
		return append([]string{"  " + mark + vs[0]}, vs[1:]...)
	case resource.DiffDelete:
		vs := pulumiValueLines(old, "    ")
		return append([]string{"  " + mark + vs[0]}, vs[1:]...)
	}
	return []string{"  " + mark + pulumiScalar(old) + " => " + pulumiScalar(cur)}
}
