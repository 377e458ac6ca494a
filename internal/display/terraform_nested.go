package display

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// tfAct is what a nested value's change does, as terraform marks it.
type tfAct uint8

const (
	tfNoop tfAct = iota
	tfAdd
	tfChange
	tfRemove
)

var tfActSymbols = map[tfAct]string{tfNoop: " ", tfAdd: "+", tfChange: "~", tfRemove: "-"}
var tfActColours = map[tfAct]colour{tfAdd: colourGreen, tfChange: colourYellow, tfRemove: colourRed}

// tfNested renders the change of one attribute whose value is a list, a
// map or an object, nested as terraform 1.11 writes it rather than
// flattened into paths. Without the provider's schema it tells the kinds
// apart by shape: an object is a map (keys quoted) unless objects is set
// (the dynamic values of terraform_data, whose keys are attribute names),
// and a top-level list of objects is a nested block (tfBlockLines).
type tfNested struct {
	p painter
	// objects renders objects as HCL objects, not maps.
	objects bool
	// hideAll hides the unchanged attributes of objects at every level
	// (an output's), not only at the first two (terraform_data's).
	hideAll bool
	// replaces reports whether a change of the path forces replacement.
	replaces func(resource.PropertyPath) bool
}

// tfIndent is terraform's indent of nested level n: a resource's
// attributes are at level 1.
func tfIndent(n int) string { return "  " + strings.Repeat("    ", n) }

// action is what changing old into new does.
func tfActionOf(old, new resource.Value) tfAct {
	switch {
	case old.IsNull() && new.IsNull():
		return tfNoop
	case old.IsNull():
		return tfAdd
	case new.IsNull():
		return tfRemove
	case old.Equal(new):
		return tfNoop
	}
	return tfChange
}

func (n tfNested) symbol(a tfAct) string {
	if a == tfNoop {
		return " "
	}
	return n.p.paint(tfActColours[a], tfActSymbols[a])
}

// forces is terraform's " # forces replacement" mark, or nothing.
func (n tfNested) forces(path resource.PropertyPath) string {
	if n.replaces != nil && n.replaces(path) {
		return " " + n.p.paint(colourRed, "# forces replacement")
	}
	return ""
}

// collection reports whether v is written over several lines.
func collection(v resource.Value) bool {
	k := v.Kind()
	return k == resource.ArrayKind || k == resource.ObjectKind
}

// value renders changing old into new at level: the text that follows
// "name = " and the lines after it. nullSuffix adds " -> null" to what
// is removed, as terraform does for map elements but not for list
// elements or object attributes.
func (n tfNested) value(path resource.PropertyPath, old, new resource.Value, level int, nullSuffix bool) []string {
	a := tfActionOf(old, new)
	switch {
	case a == tfChange && (old.IsSecret() || new.IsSecret()):
		// terraform shows neither side of a sensitive change
		return []string{tfSensitive + n.forces(path)}
	case a == tfChange && collection(old) && collection(new) && old.Kind() == new.Kind():
		if old.Kind() == resource.ArrayKind {
			return n.list(path, old.Array(), new.Array(), level, a)
		}
		return n.object(path, old.Object(), new.Object(), level, a)
	case a == tfChange && collection(old) && (new.IsUnknown() || new.IsSecret()):
		lines := n.value(path, old, resource.Null(), level, false)
		lines[len(lines)-1] += " -> " + tfInline(new)
		return lines
	case a == tfAdd && collection(new), a == tfNoop && collection(new):
		if new.Kind() == resource.ArrayKind {
			return n.list(path, nil, new.Array(), level, a)
		}
		return n.object(path, nil, new.Object(), level, a)
	case a == tfRemove && collection(old):
		var lines []string
		if old.Kind() == resource.ArrayKind {
			lines = n.list(path, old.Array(), nil, level, a)
		} else {
			lines = n.object(path, old.Object(), nil, level, a)
		}
		if nullSuffix {
			lines[len(lines)-1] += " -> null"
		}
		return lines
	}
	return n.primitive(path, old, new, a, level, nullSuffix)
}

// primitive renders a string, number, bool, unknown or secret.
func (n tfNested) primitive(path resource.PropertyPath, old, new resource.Value, a tfAct, level int, nullSuffix bool) []string {
	switch a {
	case tfAdd, tfNoop:
		return tfTextLines(new, level, n.forces(path))
	case tfRemove:
		s := ""
		if nullSuffix {
			s = " -> null"
		}
		return tfTextLines(old, level, s+n.forces(path))
	}
	if tfMultiline(old) || tfMultiline(new) {
		if old.Kind() == resource.StringKind && new.Kind() == resource.StringKind {
			return n.textDiff(path, old.Str(), new.Str(), level)
		}
	}
	lines := tfTextLines(old, level, "")
	lines[len(lines)-1] += " -> " + tfInline(new) + n.forces(path)
	return lines
}

// tfMultiline reports whether v is a string of several lines, which
// terraform writes as a heredoc.
func tfMultiline(v resource.Value) bool {
	return v.Kind() == resource.StringKind && strings.Contains(strings.TrimSuffix(v.Str(), "\n"), "\n")
}

// textDiff is a changed string of several lines as terraform shows it:
// one heredoc, its lines matched by their longest common subsequence,
// removed ones marked "-" and added ones "+".
func (n tfNested) textDiff(path resource.PropertyPath, old, new string, level int) []string {
	split := func(s string) []resource.Value {
		var out []resource.Value
		for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
			out = append(out, resource.NewString(l))
		}
		return out
	}
	lines := []string{"<<-EOT" + n.forces(path)}
	for _, pr := range tfPairsByLCS(split(old), split(new)) {
		a, text := tfActionOf(pr.old, pr.new), pr.new.Str()
		if a == tfRemove {
			text = pr.old.Str()
		}
		lines = append(lines, strings.TrimRight(tfIndent(level)+"    "+n.symbol(a)+" "+text, " "))
	}
	return append(lines, tfIndent(level)+"  EOT")
}

// tfTextLines is a primitive value, a string of several lines as
// terraform's indented heredoc.
func tfTextLines(v resource.Value, level int, suffix string) []string {
	if v.Kind() != resource.StringKind || !strings.Contains(strings.TrimSuffix(v.Str(), "\n"), "\n") {
		return []string{tfInline(v) + suffix}
	}
	lines := []string{"<<-EOT"}
	for _, l := range strings.Split(strings.TrimSuffix(v.Str(), "\n"), "\n") {
		lines = append(lines, tfIndent(level)+"      "+l)
	}
	return append(lines, tfIndent(level)+"  EOT"+suffix)
}

// list renders a list's elements one a line: pairwise when the lengths
// agree and the elements are not reordered, else by their longest common
// subsequence, unchanged elements hidden except those next to a change.
func (n tfNested) list(path resource.PropertyPath, old, new []resource.Value, level int, a tfAct) []string {
	if len(old) == 0 && len(new) == 0 {
		return []string{"[]" + n.forces(path)}
	}
	lines := []string{"[" + n.forces(path)}
	var hidden []string
	next := false
	for _, pr := range tfPairs(old, new) {
		el := append(append(resource.PropertyPath{}, path...), pr.index)
		ea := tfActionOf(pr.old, pr.new)
		body := n.value(el, pr.old, pr.new, level+1, false)
		body[0] = tfIndent(level+1) + n.symbol(ea) + " " + body[0]
		body[len(body)-1] += ","
		if ea == tfNoop && a == tfChange && !next {
			hidden = append(hidden, strings.Join(body, "\n"))
			continue
		}
		if len(hidden) > 1 {
			lines = append(lines, tfIndent(level+1)+"  "+n.unchanged("element", len(hidden)-1))
		}
		if len(hidden) > 0 {
			lines = append(lines, hidden[len(hidden)-1])
		}
		hidden, next = nil, ea == tfChange
		lines = append(lines, body...)
	}
	if len(hidden) > 0 {
		lines = append(lines, tfIndent(level+1)+"  "+n.unchanged("element", len(hidden)))
	}
	return append(lines, tfIndent(level)+"  ]")
}

func (n tfNested) unchanged(what string, count int) string {
	return n.p.paint(colourDim, "# ("+itoa(count)+" unchanged "+what+plural(count)+" hidden)")
}

// tfPair is one element of a list diff: what it was and what it becomes
// (null when added or removed), and its index in the new list, else the
// old.
type tfPair struct {
	old, new resource.Value
	index    int
}

// tfPairs matches the elements of two lists as terraform does.
func tfPairs(old, new []resource.Value) []tfPair {
	var out []tfPair
	if len(old) == len(new) && !tfReorder(old, new) {
		for i := range old {
			out = append(out, tfPair{old[i], new[i], i})
		}
		return out
	}
	return tfPairsByLCS(old, new)
}

// tfPairsByLCS matches the elements of two lists by their longest
// common subsequence: before each common element, the old elements
// removed, then the new ones added.
func tfPairsByLCS(old, new []resource.Value) []tfPair {
	var out []tfPair
	common := tfLCS(old, new)
	i, j := 0, 0
	for _, c := range common {
		for ; !old[i].Equal(c); i++ {
			out = append(out, tfPair{old[i], resource.Null(), i})
		}
		for ; !new[j].Equal(c); j++ {
			out = append(out, tfPair{resource.Null(), new[j], j})
		}
		out = append(out, tfPair{old[i], new[j], j})
		i, j = i+1, j+1
	}
	for ; i < len(old); i++ {
		out = append(out, tfPair{old[i], resource.Null(), i})
	}
	for ; j < len(new); j++ {
		out = append(out, tfPair{resource.Null(), new[j], j})
	}
	return out
}

// tfReorder reports whether every element of old is in new.
func tfReorder(old, new []resource.Value) bool {
	for _, o := range old {
		found := false
		for _, w := range new {
			found = found || o.Equal(w)
		}
		if !found {
			return false
		}
	}
	return true
}

// tfLCS is the longest common subsequence of two lists.
func tfLCS(a, b []resource.Value) []resource.Value {
	t := make([][]int, len(a)+1)
	for i := range t {
		t[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i].Equal(b[j]) {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	var out []resource.Value
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].Equal(b[j]):
			out, i, j = append(out, a[i]), i+1, j+1
		case t[i+1][j] >= t[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

// object renders a map's elements ("b" = ...) or an object's attributes
// (b = ...), names aligned over every key, unchanged ones hidden while
// the whole changes.
func (n tfNested) object(path resource.PropertyPath, old, new resource.Object, level int, a tfAct) []string {
	keys := map[string]bool{}
	for k := range old {
		keys[k] = true
	}
	for k := range new {
		keys[k] = true
	}
	names := make([]string, 0, len(keys))
	width := 0
	for k := range keys {
		names = append(names, k)
		width = max(width, len(n.key(k)))
	}
	sort.Strings(names)
	if len(names) == 0 {
		return []string{"{}" + n.forces(path)}
	}
	lines := []string{"{" + n.forces(path)}
	hidden := 0
	for _, k := range names {
		ov, nv := old[k], new[k]
		ea := tfActionOf(ov, nv)
		if ea == tfNoop && a == tfChange && (!n.objects || level < 2 || n.hideAll) {
			hidden++
			continue
		}
		body := n.value(append(append(resource.PropertyPath{}, path...), k), ov, nv, level+1, !n.objects && a == tfChange)
		body[0] = tfIndent(level+1) + n.symbol(ea) + " " + pad(n.key(k), width) + " = " + body[0]
		lines = append(lines, body...)
	}
	if hidden > 0 {
		what := "element"
		if n.objects {
			what = "attribute"
		}
		lines = append(lines, tfIndent(level+1)+"  "+n.unchanged(what, hidden))
	}
	return append(lines, tfIndent(level)+"  }")
}

// key is how an element's key is written: quoted in a map, bare (where
// it is a valid name) in an object.
func (n tfNested) key(k string) string {
	if n.objects && tfName(k) {
		return k
	}
	return strconv.Quote(k)
}

// tfName reports whether s is a valid HCL identifier.
func tfName(s string) bool {
	for i, r := range s {
		ok := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r == '-' || r >= '0' && r <= '9')
		if !ok {
			return false
		}
	}
	return s != ""
}

// sortedKeys are a map's keys in order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// attrLines are a changed top-level attribute's lines: "~ name = ..."
// with its nested changes, aligned to width.
func (n tfNested) attrLines(name string, width int, old, new resource.Value) []string {
	body := n.value(resource.PropertyPath{name}, old, new, 1, true)
	a := tfActionOf(old, new)
	if a == tfNoop {
		a = tfChange
	}
	body[0] = tfAttrIndent + n.symbol(a) + " " + pad(name, width) + " = " + body[0]
	return body
}

// tfBlockNames are the top-level attributes that are nested blocks: lists
// of objects (terraform_data has none).
func tfBlockNames(old, new resource.Object, dynamic bool) map[string]bool {
	out := map[string]bool{}
	if dynamic {
		return out
	}
	for _, o := range []resource.Object{old, new} {
		for k, v := range o {
			if v.Kind() != resource.ArrayKind || len(v.Array()) == 0 {
				continue
			}
			all := true
			for _, el := range v.Array() {
				all = all && el.Kind() == resource.ObjectKind
			}
			if all {
				out[k] = true
			}
		}
	}
	return out
}

// tfAttrNames are the names that are not blocks.
func tfAttrNames(names []string, blocks map[string]bool) []string {
	var out []string
	for _, k := range names {
		if !blocks[k] {
			out = append(out, k)
		}
	}
	return out
}

// blockList renders a nested block's changed instances, each "~ name {"
// after a blank line, and how many are unchanged.
func (n tfNested) blockList(name string, old, new resource.Value) []string {
	var lines []string
	hidden := 0
	for _, pr := range tfPairs(old.Array(), new.Array()) {
		a := tfActionOf(pr.old, pr.new)
		if a == tfNoop {
			hidden++
			continue
		}
		path := resource.PropertyPath{name, pr.index}
		head := tfAttrIndent + n.symbol(a) + " " + name + " {" + n.forces(resource.PropertyPath{name})
		lines = append(lines, "", head)
		lines = append(lines, n.blockBody(path, pr.old.Object(), pr.new.Object(), a)...)
		lines = append(lines, tfIndent(1)+"  }")
	}
	if hidden > 0 {
		lines = append(lines, "", tfAttrIndent+"  "+n.unchanged("block", hidden))
	}
	return lines
}

// blockBody is a block's attributes at level 2: changed ones, or all of
// a block added or removed, and how many are unchanged.
func (n tfNested) blockBody(path resource.PropertyPath, old, new resource.Object, a tfAct) []string {
	names := map[string]bool{}
	for _, o := range []resource.Object{old, new} {
		for _, k := range nonNullKeys(o) {
			names[k] = true
		}
	}
	keys := sortedKeys(names)
	width := maxLen(keys)
	var lines []string
	hidden := 0
	for _, k := range keys {
		ea := tfActionOf(old[k], new[k])
		if ea == tfNoop && a == tfChange {
			hidden++
			continue
		}
		body := n.value(append(append(resource.PropertyPath{}, path...), k), old[k], new[k], 2, a != tfAdd)
		body[0] = tfIndent(2) + n.symbol(ea) + " " + pad(k, width) + " = " + body[0]
		lines = append(lines, body...)
	}
	if hidden > 0 {
		lines = append(lines, tfIndent(2)+"  "+n.unchanged("attribute", hidden))
	}
	return lines
}
