package display

import (
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/plinth-iac/plinth/internal/schema"
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
// flattened into paths. With the provider's schema (props) it knows
// which values are nested blocks, sets, maps or objects; without it, it
// tells them apart by shape: an object is a map (keys quoted) unless
// objects is set (the dynamic values of terraform_data, whose keys are
// attribute names), and a top-level list of objects is a nested block.
type tfNested struct {
	p painter
	// props is the schema of the resource's attributes and blocks; nil
	// when the display has none.
	props map[string]schema.Property
	// objects renders objects as HCL objects, not maps.
	objects bool
	// hideAll hides the unchanged attributes of objects at every level
	// (an output's), not only at the first two (terraform_data's).
	hideAll bool
	// showUnchanged shows the unchanged elements and attributes of what
	// changes, as terraform shows those of its important attributes.
	showUnchanged bool
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
func (n tfNested) value(path resource.PropertyPath, old, new resource.Value, level int, nullSuffix bool, t *schema.Type) []string {
	a := tfActionOf(old, new)
	if oj, nj, ok := tfJSONPair(old, new); ok && a != tfNoop {
		return n.jsonValue(path, oj, nj, level, a)
	}
	switch {
	case a == tfChange && (old.IsSecret() || new.IsSecret()):
		// terraform shows neither side of a sensitive change
		return []string{tfSensitive + n.forces(path)}
	case a == tfChange && collection(old) && collection(new) && old.Kind() == new.Kind():
		if old.Kind() == resource.ArrayKind {
			return n.list(path, old.Array(), new.Array(), level, a, t)
		}
		return n.object(path, old.Object(), new.Object(), level, a, t)
	case a == tfChange && collection(old) && (new.IsUnknown() || new.IsSecret()):
		lines := n.value(path, old, resource.Null(), level, false, t)
		lines[len(lines)-1] += " -> " + tfInline(new)
		return lines
	case a == tfNoop && collection(new): // shown whole, every element unchanged
		if new.Kind() == resource.ArrayKind {
			return n.list(path, new.Array(), new.Array(), level, a, t)
		}
		return n.object(path, new.Object(), new.Object(), level, a, t)
	case a == tfAdd && collection(new):
		if new.Kind() == resource.ArrayKind {
			return n.list(path, nil, new.Array(), level, a, t)
		}
		return n.object(path, nil, new.Object(), level, a, t)
	case a == tfRemove && collection(old):
		var lines []string
		if old.Kind() == resource.ArrayKind {
			lines = n.list(path, old.Array(), nil, level, a, t)
		} else {
			lines = n.object(path, old.Object(), nil, level, a, t)
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

// tfMultiline reports whether v is a string with a line break, which
// terraform's plan writes as a heredoc: one line ending in "\n" too
// (an OpenSSH public key).
func tfMultiline(v resource.Value) bool {
	return v.Kind() == resource.StringKind && strings.Contains(v.Str(), "\n")
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
	if !tfMultiline(v) {
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
// A set (by its schema type t) has no order: its elements are matched by
// value, and every unchanged one is hidden, counted at the end.
func (n tfNested) list(path resource.PropertyPath, old, new []resource.Value, level int, a tfAct, t *schema.Type) []string {
	if len(old) == 0 && len(new) == 0 {
		return []string{"[]" + n.forces(path)}
	}
	var elem *schema.Type
	if t != nil {
		elem = t.Elem
	}
	if t != nil && t.Set {
		return n.set(path, old, new, level, a, elem)
	}
	lines := []string{"[" + n.forces(path)}
	var hidden []string
	next := false
	for _, pr := range tfPairs(old, new) {
		el := append(append(resource.PropertyPath{}, path...), pr.index)
		ea := tfActionOf(pr.old, pr.new)
		body := n.value(el, pr.old, pr.new, level+1, false, elem)
		body[0] = tfIndent(level+1) + n.symbol(ea) + " " + body[0]
		body[len(body)-1] += ","
		if ea == tfNoop && a == tfChange && !next && !n.showUnchanged {
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

// set renders a set's elements as terraform does: those removed and
// those added, one a line, and how many are unchanged.
func (n tfNested) set(path resource.PropertyPath, old, new []resource.Value, level int, a tfAct, elem *schema.Type) []string {
	lines := []string{"[" + n.forces(path)}
	hidden := 0
	for _, pr := range tfSetPairs(old, new) {
		ea := tfActionOf(pr.old, pr.new)
		if ea == tfNoop && a == tfChange && !n.showUnchanged {
			hidden++
			continue
		}
		body := n.value(path, pr.old, pr.new, level+1, false, elem)
		body[0] = tfIndent(level+1) + n.symbol(ea) + " " + body[0]
		body[len(body)-1] += ","
		lines = append(lines, body...)
	}
	if hidden > 0 {
		lines = append(lines, tfIndent(level+1)+"  "+n.unchanged("element", hidden))
	}
	return append(lines, tfIndent(level)+"  ]")
}

// tfSetPairs matches the elements of two sets as terraform does: each
// old element with an equal new one (unchanged) or with nothing
// (removed), in the old order, then the new elements left (added).
func tfSetPairs(old, new []resource.Value) []tfPair {
	used := make([]bool, len(new))
	var out []tfPair
	for i, o := range old {
		pr := tfPair{old: o, new: resource.Null(), index: i}
		for j, w := range new {
			if !used[j] && o.Equal(w) {
				used[j], pr.new = true, w
				break
			}
		}
		out = append(out, pr)
	}
	for j, w := range new {
		if !used[j] {
			out = append(out, tfPair{old: resource.Null(), new: w, index: j})
		}
	}
	return out
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
// the whole changes. Its schema type t, when known, says which it is.
func (n tfNested) object(path resource.PropertyPath, old, new resource.Object, level int, a tfAct, t *schema.Type) []string {
	isObject := n.isObject(t)
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
		width = max(width, len(tfKey(k, isObject)))
	}
	sort.Strings(names)
	if len(names) == 0 {
		return []string{"{}" + n.forces(path)}
	}
	lines := []string{"{" + n.forces(path)}
	hidden := 0
	hideAll := n.hideAll || tfTyped(t)
	for _, k := range names {
		ov, nv := old[k], new[k]
		ea := tfActionOf(ov, nv)
		if ea == tfNoop && (a == tfAdd || a == tfRemove) && !(t != nil && t.Nested) {
			// a null attribute of an object added or removed is added
			// or removed with it: terraform writes "+ country = null"
			ea = a
		}
		if ea == tfNoop && a == tfChange && (!isObject || level < 2 || hideAll) && !n.showUnchanged {
			hidden++
			continue
		}
		body := n.value(append(append(resource.PropertyPath{}, path...), k), ov, nv, level+1, tfNullSuffix(t, isObject, a), tfMember(t, k))
		body[0] = tfIndent(level+1) + n.symbol(ea) + " " + pad(tfKey(k, isObject), width) + " = " + body[0]
		lines = append(lines, body...)
	}
	if hidden > 0 {
		what := "element"
		if isObject {
			what = "attribute"
		}
		lines = append(lines, tfIndent(level+1)+"  "+n.unchanged(what, hidden))
	}
	return append(lines, tfIndent(level)+"  }")
}

// tfNullSuffix reports whether the members an object of type t loses
// are marked " -> null", as terraform marks them: a map's elements when
// the map changes, nested attributes (as a block's) unless the object is
// added, never the attributes of a value of an object type.
func tfNullSuffix(t *schema.Type, isObject bool, a tfAct) bool {
	switch {
	case t != nil && t.Nested:
		return a != tfAdd
	case isObject:
		return false
	}
	return a == tfChange
}

// tfTyped reports whether t says what a value is: a map, an object or a
// list, not unknown or any (a dynamic value).
func tfTyped(t *schema.Type) bool {
	return t != nil && t.Kind != "" && t.Kind != schema.TypeAny
}

// isObject reports whether an object value of type t is an HCL object
// (bare attribute names), not a map (quoted keys): by its type when the
// schema gives one, else as the view was told (n.objects).
func (n tfNested) isObject(t *schema.Type) bool {
	if tfTyped(t) {
		return t.Kind == schema.TypeObject
	}
	return n.objects
}

// tfMember is the type of an object's attribute k, or a map's element;
// nil when unknown.
func tfMember(t *schema.Type, k string) *schema.Type {
	switch {
	case t == nil:
		return nil
	case t.Kind == schema.TypeMap:
		return t.Elem
	case t.Kind == schema.TypeObject:
		if p, ok := t.Properties[k]; ok {
			return &p.Type
		}
	}
	return nil
}

// tfKey is how an element's key is written: quoted in a map, bare
// (where it is a valid name) in an object.
func tfKey(k string, object bool) string {
	if object && tfName(k) {
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
	body := n.value(resource.PropertyPath{name}, old, new, 1, true, n.propType(name))
	a := tfActionOf(old, new)
	if a == tfNoop {
		a = tfChange
	}
	body[0] = tfAttrIndent + n.symbol(a) + " " + pad(name, width) + " = " + body[0]
	return body
}

// propType is the schema type of the top-level attribute or block name,
// nil when unknown.
func (n tfNested) propType(name string) *schema.Type {
	if p, ok := n.props[name]; ok {
		return &p.Type
	}
	return nil
}

// tfBlockNames are the top-level attributes that are nested blocks: those
// the schema (props) calls blocks, else, without a schema, lists of
// objects (terraform_data has none).
func tfBlockNames(old, new resource.Object, dynamic bool, props map[string]schema.Property) map[string]bool {
	out := map[string]bool{}
	if len(props) > 0 {
		for k, p := range props {
			if p.Block {
				out[k] = true
			}
		}
		return out
	}
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

// tfBlockInstances are a nested block's instances: the elements of a
// list or set of blocks, or the one object of a single block (none when
// it is null).
func tfBlockInstances(v resource.Value) []resource.Value {
	switch v.Kind() {
	case resource.ArrayKind:
		return v.Array()
	case resource.ObjectKind:
		return []resource.Value{v}
	}
	return nil
}

// blockList renders the changed instances of the nested block name at
// level (1 for a resource's own blocks), each "~ name {", the first
// after a blank line, and returns how many are unchanged, which
// terraform counts over every block type (tfHiddenBlocks). Its schema
// type t, when known, says whether it is a set, whose instances are
// matched by value (a changed one is shown removed and added), and what
// its blocks hold.
func (n tfNested) blockList(path resource.PropertyPath, name string, old, new resource.Value, level int, t *schema.Type) ([]string, int) {
	var lines []string
	hidden := 0
	olds, news := tfBlockInstances(old), tfBlockInstances(new)
	pairs := tfPairs(olds, news)
	elem := t
	if t != nil && t.Kind == schema.TypeArray {
		elem = t.Elem
		if t.Set {
			pairs = tfSetPairs(olds, news)
		}
	}
	blockPath := append(append(resource.PropertyPath{}, path...), name)
	for _, pr := range pairs {
		a := tfActionOf(pr.old, pr.new)
		if a == tfNoop {
			hidden++
			continue
		}
		at := append(append(resource.PropertyPath{}, blockPath...), pr.index)
		head := tfIndent(level) + n.symbol(a) + " " + name + " {" + n.forces(blockPath)
		if len(lines) == 0 { // terraform parts block types, not their instances
			lines = append(lines, "")
		}
		lines = append(lines, head)
		lines = append(lines, n.blockBody(at, pr.old.Object(), pr.new.Object(), a, level+1, elem)...)
		lines = append(lines, tfIndent(level)+"  }")
	}
	return lines, hidden
}

// hiddenBlocks is terraform's line after every block at level: how many
// are unchanged, or nothing.
func (n tfNested) hiddenBlocks(level, hidden int) []string {
	if hidden == 0 {
		return nil
	}
	return []string{"", tfIndent(level) + "  " + n.unchanged("block", hidden)}
}

// blockBody is a block's attributes at level (2 for a resource's own
// blocks): changed ones, or all of a block added or removed, and how
// many are unchanged, then its own nested blocks, as its schema type t
// names them.
func (n tfNested) blockBody(path resource.PropertyPath, old, new resource.Object, a tfAct, level int, t *schema.Type) []string {
	names := map[string]bool{}
	blocks := map[string]bool{}
	for _, o := range []resource.Object{old, new} {
		for _, k := range nonNullKeys(o) {
			if p, ok := tfProp(t, k); ok && p.Block {
				blocks[k] = true
			} else {
				names[k] = true
			}
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
		body := n.value(append(append(resource.PropertyPath{}, path...), k), old[k], new[k], level, a != tfAdd, tfMember(t, k))
		body[0] = tfIndent(level) + n.symbol(ea) + " " + pad(k, width) + " = " + body[0]
		lines = append(lines, body...)
	}
	if hidden > 0 {
		lines = append(lines, tfIndent(level)+"  "+n.unchanged("attribute", hidden))
	}
	hiddenBlocks := 0
	for _, k := range sortedKeys(blocks) {
		bl, h := n.blockList(path, k, old[k], new[k], level, tfMember(t, k))
		lines, hiddenBlocks = append(lines, bl...), hiddenBlocks+h
	}
	return append(lines, n.hiddenBlocks(level, hiddenBlocks)...)
}

// tfProp is the schema of an object type's attribute or block k.
func tfProp(t *schema.Type, k string) (schema.Property, bool) {
	if t == nil || t.Kind != schema.TypeObject {
		return schema.Property{}, false
	}
	p, ok := t.Properties[k]
	return p, ok
}

// tfJSON is the value a string holding a JSON object or array encodes,
// and whether it holds one.
func tfJSON(v resource.Value) (resource.Value, bool) {
	if v.Kind() != resource.StringKind {
		return resource.Value{}, false
	}
	text := strings.TrimSpace(v.Str())
	if !strings.HasPrefix(text, "{") && !strings.HasPrefix(text, "[") {
		return resource.Value{}, false
	}
	var decoded any
	if json.Unmarshal([]byte(text), &decoded) != nil {
		return resource.Value{}, false
	}
	jv, err := resource.FromGo(decoded)
	return jv, err == nil
}

// tfJSONPair decodes both sides of a change whose sides, where not null,
// are strings holding JSON objects or arrays, which terraform shows as
// jsonencode(...) of the values they encode.
func tfJSONPair(old, new resource.Value) (resource.Value, resource.Value, bool) {
	oj, nj := resource.Null(), resource.Null()
	ok := true
	if !old.IsNull() {
		oj, ok = tfJSON(old)
	}
	if ok && !new.IsNull() {
		var nok bool
		nj, nok = tfJSON(new)
		ok = nok
	}
	return oj, nj, ok && !(old.IsNull() && new.IsNull())
}

// jsonValue renders a change of strings holding JSON as terraform does:
// "jsonencode(", the values they encode nested as objects and lists one
// level further in (marked "~" when they change, else unmarked), and
// ")"; what forces replacement is marked after the value's last line.
func (n tfNested) jsonValue(path resource.PropertyPath, old, new resource.Value, level int, a tfAct) []string {
	inner := tfNested{p: n.p, objects: true, hideAll: true}
	body := inner.value(path, old, new, level+1, false, nil)
	symbol := " "
	if a == tfChange {
		symbol = n.symbol(tfChange)
	}
	body[0] = tfIndent(level+1) + symbol + " " + body[0]
	body[len(body)-1] += n.forces(path)
	lines := append([]string{"jsonencode("}, body...)
	return append(lines, tfIndent(level)+"  )")
}
