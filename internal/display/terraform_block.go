package display

import (
	"sort"
	"strconv"
	"strings"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// tfAction is how terraform marks a planned step: the marker before its
// block, the end of its "# ADDRESS ..." heading, and what the legend
// says the marker means.
type tfAction struct {
	symbol  string
	heading string
	colour  colour
	legend  string
}

var (
	tfCreate  = tfAction{"+", "will be created", colourGreen, "create"}
	tfUpdate  = tfAction{"~", "will be updated in-place", colourYellow, "update in-place"}
	tfDestroy = tfAction{"-", "will be destroyed", colourRed, "destroy"}
	tfReplace = tfAction{"-/+", "must be replaced", colourMagenta, "destroy and then create replacement"}
	tfCBD     = tfAction{"+/-", "must be replaced", colourMagenta, "create replacement and then destroy"}
	tfRead    = tfAction{"<=", "will be read during apply", colourCyan, "read (data resources)"}
	// An import without changes has no marker and is not in the legend.
	tfImport    = tfAction{"", "will be imported", colourCyan, ""}
	tfRefreshed = tfAction{"~", "has changed outside of Plinth", colourYellow, "changed outside of Plinth"}
	tfForget    = tfAction{".", "will no longer be managed by Plinth", colourRed, "forget (the object is left as it is)"}
)

// tfActions maps the engine's planned steps to terraform's markers.
var tfActions = map[engine.StepOp]tfAction{
	engine.OpCreate: tfCreate, engine.OpUpdate: tfUpdate, engine.OpDelete: tfDestroy,
	engine.OpReplace: tfReplace, engine.OpCreateReplacement: tfCBD,
	engine.OpImport: tfImport, engine.OpRefresh: tfRefreshed, engine.OpDiscard: tfForget,
	opReadDuringApply: tfRead,
	opReadPending:     tfRead,
	opReadCheck:       tfRead,
}

// tfReplaceHeadings are terraform's headings of a forced replacement.
var tfReplaceHeadings = map[engine.ReplaceReason]string{
	engine.ReplaceTainted:   "is tainted, so must be replaced",
	engine.ReplaceRequested: "will be replaced, as requested",
	engine.ReplaceTriggered: "will be replaced due to changes in replace_triggered_by",
}

// tfLegend is the order terraform's legend lists markers in.
var tfLegend = []tfAction{tfCreate, tfUpdate, tfDestroy, tfReplace, tfCBD, tfRead, tfRefreshed, tfForget}

// tfWords are the words of terraform's progress lines for one step.
type tfWords struct{ doing, done, failed string }

var tfProgress = map[engine.StepOp]tfWords{
	engine.OpCreate:            {"Creating", "Creation complete", "Creation failed"},
	engine.OpCreateReplacement: {"Creating", "Creation complete", "Creation failed"},
	engine.OpUpdate:            {"Modifying", "Modifications complete", "Modification failed"},
	engine.OpReplace:           {"Replacing", "Replacement complete", "Replacement failed"},
	engine.OpDelete:            {"Destroying", "Destruction complete", "Destruction failed"},
	engine.OpDeleteReplaced:    {"Destroying", "Destruction complete", "Destruction failed"},
	engine.OpRefresh:           {"Refreshing state", "Refresh complete", "Refresh failed"},
	engine.OpImport:            {"Importing", "Import complete", "Import failed"},
	engine.OpDiscard:           {"Forgetting", "Forgotten", "Forgetting failed"},
}

const (
	tfKnownAfterApply = "(known after apply)"
	tfSensitive       = "(sensitive value)"
	tfAttrIndent      = "      "
)

// tfBlock renders one planned step as terraform does, and returns the
// action it marks it with:
//
//	# random_pet.a will be created
//	+ resource "random_pet" "a" {
//	    + id     = (known after apply)
//	    + length = 2
//	  }
func tfBlock(p painter, e engine.Event) (tfAction, []string) {
	return tfImportedBlock(p, e, "", nil)
}

// tfImportedBlock is tfBlock for a step that also imports the object
// with ID importedFrom, as terraform shows an import whose configuration
// differs from the object: the update's block under a line naming the ID,
// every attribute shown, unchanged ones too.
//
//	# random_pet.p will be updated in-place
//	# (imported from "witty-otter")
//	~ resource "random_pet" "p" { ...
//
// props is the schema of the resource's attributes and blocks, nil when
// the view has none.
func tfImportedBlock(p painter, e engine.Event, importedFrom string, props map[string]schema.Property) (tfAction, []string) {
	a := tfActions[e.Op]
	switch {
	case e.Op == engine.OpRefresh && e.New == nil:
		a.heading, a.symbol = "has been deleted outside of Plinth", "-"
	case e.Op == engine.OpCreateReplacement && deleteFirst(e):
		a = tfReplace
	}
	if h := tfReplaceHeadings[e.ReplaceReason]; h != "" {
		a.heading = h
	}
	typ, name := tfTypeName(e)
	lines := []string{"  " + p.paint(colourBold, "# "+e.URN.Name()) + " " + a.heading}
	if importedFrom != "" {
		lines = append(lines, "  # (imported from "+strconv.Quote(importedFrom)+")")
	}
	kind := " resource "
	if why, ok := tfReadReasons[e.Op]; ok {
		lines, kind = append(lines, "  # "+why), " data "
	}
	lines = append(lines, p.paint(a.colour, padSymbol(a.symbol))+kind+strconv.Quote(typ)+" "+strconv.Quote(name)+" {")
	lines = append(lines, tfBlockAttrs(p, e, importedFrom != "", props)...)
	return a, append(lines, "    }")
}

// deleteFirst reports whether a replacement deletes the old resource
// before it creates the new one.
func deleteFirst(e engine.Event) bool {
	return e.DeleteFirst || e.New != nil && e.New.DeleteBeforeReplace || e.Old != nil && e.Old.DeleteBeforeReplace
}

// padSymbol right-aligns a marker in terraform's three columns.
func padSymbol(s string) string {
	if len(s) >= 3 {
		return s
	}
	return strings.Repeat(" ", 3-len(s)) + s
}

// tfTypeName is the type and name of a resource's block: random_pet and
// a for module.x.random_pet.a[0].
func tfTypeName(e engine.Event) (typ, name string) {
	typ = e.Type
	if typ == "" {
		typ = e.URN.Type()
	}
	typ = typ[strings.LastIndex(typ, ":")+1:]
	addr := e.URN.Name()
	if strings.HasSuffix(addr, "]") {
		if i := strings.LastIndex(addr, "["); i > 0 {
			addr = addr[:i]
		}
	}
	return typ, addr[strings.LastIndex(addr, ".")+1:]
}

// tfBlockAttrs are a block's attribute lines: every attribute of what is
// created, destroyed or imported, the changed ones of an update or
// replacement (and the unchanged ones too when it also imports).
func tfBlockAttrs(p painter, e engine.Event, importing bool, props map[string]schema.Property) []string {
	n := tfNested{p: p, objects: tfDynamic(e), props: props}
	switch e.Op {
	case engine.OpCreate:
		return n.allAttrs(planned(e.New), "+", false)
	case engine.OpImport:
		return tfUnchangedAttrs(planned(e.New))
	case engine.OpDelete, engine.OpDiscard:
		return n.allAttrs(recorded(e.Old), "-", true)
	}
	if e.Old == nil {
		return n.allAttrs(planned(e.New), "+", false)
	}
	return n.changedAttrs(e, importing)
}

// tfUnchangedAttrs lists every attribute of an imported object as
// terraform does, without a marker: "    id = "abc"".
func tfUnchangedAttrs(o resource.Object) []string {
	keys := nonNullKeys(o)
	width := maxLen(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, tfUnchangedLine(k, width, o[k]))
	}
	return out
}

// tfUnchangedLine is an attribute an import leaves as it is. Nested
// values are written on one line, where terraform expands them.
func tfUnchangedLine(name string, width int, v resource.Value) string {
	return tfAttrIndent + "  " + pad(name, width) + " = " + tfInline(v)
}

// planned is what a preview knows of a resource to be: its planned
// outputs over its inputs.
func planned(r *state.Resource) resource.Object {
	if r == nil {
		return nil
	}
	o := r.Inputs.Copy()
	if o == nil {
		o = resource.Object{}
	}
	for k, v := range r.Outputs {
		o[k] = v
	}
	if _, ok := o["id"]; !ok && (r.ID == "" || r.ID == engine.UnknownID) {
		o["id"] = resource.Unknown()
	}
	return o
}

// recorded is what is known of an existing resource: its outputs, else
// its inputs.
func recorded(r *state.Resource) resource.Object {
	if r == nil {
		return nil
	}
	if len(r.Outputs) > 0 {
		return r.Outputs
	}
	return r.Inputs
}

// allAttrs lists every attribute of o that is set, each with symbol,
// nested values fully expanded, then its nested blocks; toNull adds
// terraform's "-> null" for what is destroyed. An empty string is no
// change from null to terraform: it is counted among the unchanged
// attributes, not shown (names stay aligned over it).
func (n tfNested) allAttrs(o resource.Object, symbol string, toNull bool) []string {
	p := n.p
	blocks := tfBlockNames(o, nil, n.objects, n.props)
	keys := append(tfAttrNames(nonNullKeys(o), blocks), tfWriteOnlyNames(o)...)
	sort.Strings(keys)
	width := maxLen(keys)
	var out []string
	hidden := 0
	for _, k := range keys {
		v := o[k]
		switch {
		case v.IsNull():
			line := tfAttrIndent + p.paint(colourGreen, symbol) + " " + pad(k, width) + " = (write-only attribute)"
			if toNull {
				line = tfAttrIndent + p.paint(colourRed, symbol) + " " + pad(k, width) + " = (write-only attribute) -> null"
			}
			out = append(out, line)
			continue
		case tfEmpty(v):
			hidden++
			continue
		}
		old, nw := resource.Null(), v
		if toNull {
			old, nw = v, resource.Null()
		}
		out = append(out, n.attrLines(k, width, old, nw)...)
	}
	if hidden > 0 {
		out = append(out, tfAttrIndent+"  "+n.unchanged("attribute", hidden))
	}
	for _, k := range sortedKeys(blocks) {
		old, nw := resource.Null(), o[k]
		if toNull {
			old, nw = o[k], resource.Null()
		}
		bl, _ := n.blockList(nil, k, old, nw, 1, n.propType(k)) // all shown
		out = append(out, bl...)
	}
	return out
}

// tfEmpty reports whether v is an empty string, sensitive or not, which
// terraform takes for null.
func tfEmpty(v resource.Value) bool {
	if v.IsSecret() {
		v = v.SecretElement()
	}
	return v.Kind() == resource.StringKind && v.Str() == ""
}

// changedAttrs lists what an update or replacement changes, an
// attribute's nested changes under it, then the id and how many
// attributes are unchanged, then the changed nested blocks.
func (n tfNested) changedAttrs(e engine.Event, importing bool) []string {
	p := n.p
	cs := changes(e)
	old := recorded(e.Old)
	for i, c := range cs {
		// A provider's diff may call a recorded value about to be
		// recomputed an addition; terraform shows the value it replaces.
		if v, ok := lookup(old, c.path); ok && !v.IsNull() && c.kind == resource.DiffAdd {
			cs[i].kind, cs[i].old = resource.DiffUpdate, v
		}
	}
	cs = append(cs, recomputed(e, old, cs)...)
	roots, news := tfRoots(e, old, cs)
	n.replaces = tfReplaces(cs)
	replacing := e.Op == engine.OpReplace || e.Op == engine.OpCreateReplacement
	blocks := tfBlockNames(old, planned(e.New), n.objects, n.props)
	// terraform aligns the names of every attribute set, hidden ones
	// too, and of the write-only ones it counts among them
	width := max(maxLen(tfAttrNames(nonNullKeys(old), blocks)), maxLen(tfAttrNames(nonNullKeys(planned(e.New)), blocks)), maxLen(tfAttrNames(roots, blocks)),
		maxLen(tfWriteOnlyNames(old)))
	shown := map[string]bool{}
	attrs := map[string][]string{}
	var blockLines []string
	hiddenBlocks := 0
	for _, r := range roots {
		shown[r] = true
		if blocks[r] {
			bl, h := n.blockList(nil, r, old[r], news[r], 1, n.propType(r))
			blockLines, hiddenBlocks = append(blockLines, bl...), hiddenBlocks+h
			continue
		}
		nr := n
		nr.showUnchanged = tfImportant[r]
		attrs[r] = append(tfSensitivityWarning(p, old[r], news[r]), nr.attrLines(r, width, old[r], news[r])...)
	}
	for _, k := range nonNullKeys(old) { // shown unchanged, as terraform does
		if tfImportant[k] && !shown[k] && !blocks[k] {
			nk := n
			nk.showUnchanged = true
			body := nk.value(resource.PropertyPath{k}, old[k], old[k], 1, true, n.propType(k))
			body[0] = tfAttrIndent + "  " + pad(k, width) + " = " + body[0]
			attrs[k], shown[k] = body, true
		}
	}
	if id, ok := old["id"]; ok && !shown["id"] {
		width = max(width, 2)
		attrs["id"] = []string{tfAttrIndent + "  " + pad("id", width) + " = " + tfInline(id)}
		if replacing {
			attrs["id"] = []string{tfAttrIndent + p.paint(colourYellow, "~") + " " + pad("id", width) + " = " + tfInline(id) + " -> " + tfKnownAfterApply}
		}
		shown["id"] = true
	}
	if importing { // terraform shows every attribute of what it imports
		for _, k := range tfAttrNames(nonNullKeys(old), blocks) {
			if !shown[k] {
				attrs[k], shown[k] = []string{tfUnchangedLine(k, width, old[k])}, true
			}
		}
	}
	var out []string
	for _, k := range sortedKeys(attrs) { // terraform's order: by name, id among them
		out = append(out, attrs[k]...)
	}
	if n := len(tfAttrNames(nonNullKeys(old), blocks)) - countShown(old, shown, blocks) + tfWriteOnly(old, shown); n > 0 {
		out = append(out, tfAttrIndent+"  "+p.paint(colourDim, "# ("+itoa(n)+" unchanged attribute"+plural(n)+" hidden)"))
	}
	for k := range blocks { // block types that do not change at all
		if !shown[k] {
			hiddenBlocks += len(tfBlockInstances(old[k]))
		}
	}
	return append(append(out, blockLines...), n.hiddenBlocks(1, hiddenBlocks)...)
}

// tfImportant are the attributes terraform always shows whole in an
// update, changed or not (besides id): the tags of AWS and others.
var tfImportant = map[string]bool{"tags": true, "tags_all": true}

// tfSensitivityWarning is terraform's warning above an attribute whose
// value stops or starts being sensitive, or nothing: a value added or
// removed has no warning, as in terraform, nor one that becomes unknown:
// whether a provider will mark what it computes sensitive is in its
// schema, which a preview does not hold.
//
//	# Warning: this attribute value will no longer be marked as sensitive
//	# after applying this change.
func tfSensitivityWarning(p painter, old, new resource.Value) []string {
	wasSecret, isSecret := old.IsSecret(), new.IsSecret()
	if wasSecret == isSecret || new.IsUnknown() || tfActionOf(old, new) != tfChange {
		return nil
	}
	warning := tfAttrIndent + "# " + p.paint(colourYellow, "Warning") + ": "
	if wasSecret {
		return []string{warning + "this attribute value will no longer be marked as sensitive", tfAttrIndent + "# after applying this change."}
	}
	return []string{warning + "this attribute value will be marked as sensitive and will not", tfAttrIndent + "# display in UI output after applying this change."}
}

// tfRoots are the top-level attributes the changes touch, in name order,
// and what each becomes: the planned value, overwritten by every change.
func tfRoots(e engine.Event, old resource.Object, cs []change) ([]string, resource.Object) {
	newObj := planned(e.New)
	news := resource.Object{}
	var roots []string
	for _, c := range cs {
		r := rootOf(c.path)
		if _, ok := news[r]; !ok {
			roots = append(roots, r)
			v, ok := newObj[r]
			if !ok {
				v = old[r]
			}
			news[r] = v
		}
		path, err := resource.ParsePath(c.path)
		if err != nil {
			continue
		}
		v := c.new
		if c.kind == resource.DiffDelete {
			v = resource.Null()
		}
		if nv, ok := path[1:].Set(news[r], v); ok {
			news[r] = nv
		}
	}
	sort.Strings(roots)
	return roots, news
}

// tfDynamic reports whether a resource's attributes are of dynamic type,
// their objects HCL objects rather than maps: terraform_data's.
func tfDynamic(e engine.Event) bool {
	typ, _ := tfTypeName(e)
	return typ == "terraform_data"
}

// tfReplaces marks what forces a replacement as terraform does: the
// top-level attribute or block whose change does, and an attribute of a
// nested block that does; never a map's or a list's element.
func tfReplaces(cs []change) func(resource.PropertyPath) bool {
	marked := map[string]bool{}
	for _, c := range cs {
		if !c.replaces {
			continue
		}
		marked[rootOf(c.path)] = true
		if path, err := resource.ParsePath(c.path); err == nil && len(path) == 3 {
			if _, ok := path[1].(int); ok {
				marked[c.path] = true
			}
		}
	}
	return func(p resource.PropertyPath) bool {
		if len(p) != 1 && len(p) != 3 {
			return false
		}
		return marked[p.String()]
	}
}

// recomputed are the attributes a preview's planned outputs leave
// unknown that the diff does not name (terraform_data's output when its
// input changes, or it was null, as in an object just imported):
// terraform shows them as "~ x -> (known after apply)" or
// "+ x = (known after apply)".
func recomputed(e engine.Event, old resource.Object, cs []change) []change {
	if e.New == nil || !e.Preview {
		return nil
	}
	named := map[string]bool{"id": true}
	for _, c := range cs {
		named[rootOf(c.path)] = true
	}
	var out []change
	for _, k := range nonNullKeys(e.New.Outputs) {
		v := old[k]
		switch {
		case named[k] || !e.New.Outputs[k].IsUnknown() || v.IsUnknown():
		case v.IsNull(): // unset before, as in an object just imported
			out = append(out, change{path: k, kind: resource.DiffAdd, new: resource.Unknown()})
		default:
			out = append(out, change{path: k, kind: resource.DiffUpdate, old: v, new: resource.Unknown()})
		}
	}
	return out
}

// tfWriteOnly counts the write-only attributes (named *_wo, always null
// in state) that terraform counts among the unchanged attributes.
func tfWriteOnly(o resource.Object, shown map[string]bool) int {
	n := 0
	for k, v := range o {
		if v.IsNull() && strings.HasSuffix(k, "_wo") && !shown[k] {
			n++
		}
	}
	return n
}

// tfWriteOnlyNames are the write-only attributes of o (named *_wo,
// always null), which terraform lists as "(write-only attribute)" in
// what it creates.
func tfWriteOnlyNames(o resource.Object) []string {
	var out []string
	for k, v := range o {
		if v.IsNull() && strings.HasSuffix(k, "_wo") {
			out = append(out, k)
		}
	}
	return out
}

func countShown(o resource.Object, shown, blocks map[string]bool) int {
	n := 0
	for _, k := range nonNullKeys(o) {
		if shown[k] && !blocks[k] {
			n++
		}
	}
	return n
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// tfInline renders a value on one line as terraform would write it:
// strings quoted, "(known after apply)", "(sensitive value)", lists and
// objects in HCL syntax.
func tfInline(v resource.Value) string {
	switch v.Kind() {
	case resource.SecretKind:
		return tfSensitive
	case resource.UnknownKind:
		return tfKnownAfterApply
	case resource.NullKind:
		return "null"
	case resource.StringKind:
		return strconv.Quote(v.Str())
	case resource.ArrayKind:
		parts := make([]string, 0, len(v.Array()))
		for _, el := range v.Array() {
			parts = append(parts, tfInline(el))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case resource.ObjectKind:
		o := v.Object()
		keys := o.Keys()
		sort.Strings(keys)
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			parts = append(parts, strconv.Quote(k)+" = "+tfInline(o[k]))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return Value(v)
}

func nonNullKeys(o resource.Object) []string {
	var keys []string
	for k, v := range o {
		if v.IsSecret() {
			v = v.SecretElement() // a sensitive attribute that is null is null
		}
		if !v.IsNull() {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func maxLen(keys []string) int {
	w := 0
	for _, k := range keys {
		w = max(w, len(k))
	}
	return w
}

func pad(s string, width int) string {
	if len(s) >= width {
		return s
	}
	return s + strings.Repeat(" ", width-len(s))
}

// tfOutputChangeLines are a preview's "Changes to Outputs:" lines.
func tfOutputChangeLines(p painter, o Outcome) []string {
	changes := o.outputChanges()
	if len(changes) == 0 {
		return nil
	}
	names := make([]string, 0, len(changes))
	for n := range changes {
		names = append(names, n)
	}
	sort.Strings(names)
	// terraform aligns the names of every output, unchanged ones too
	width := max(maxLen(names), maxLen(sortedKeys(o.PriorOutputs)), maxLen(sortedKeys(o.Result.Outputs)))
	var lines []string
	for _, n := range names {
		lines = append(lines, tfOutputChange(p, n, width, o.PriorOutputs[n], o.Result.Outputs[n])...)
	}
	return lines
}

// tfOutputChange is one output's change, nested as terraform shows it:
// an output's value has no schema, so its objects are written as HCL
// objects (bare keys, "# (1 unchanged attribute hidden)"), its lists one
// element a line, its strings of several lines as heredocs.
func tfOutputChange(p painter, name string, width int, old, new resource.Value) []string {
	n := tfNested{p: p, objects: true, hideAll: true}
	a := tfActionOf(old, new)
	body := n.value(resource.PropertyPath{name}, old, new, 0, true, nil)
	body[0] = "  " + n.symbol(a) + " " + pad(name, width) + " = " + body[0]
	return body
}
