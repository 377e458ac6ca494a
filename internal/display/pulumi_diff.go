package display

import (
	"strings"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// diffBlock is a finished step as `pulumi preview --diff` shows it,
// indented by the resource's depth in the tree:
//
//	~ plinth:fs:File: (update)
//	    [id=/tmp/out.txt]
//	    [urn=urn:pulumi:dev::demo::plinth:fs:File::file]
//	  ~ content: "old" => "new"
//
// A create lists the new inputs and a delete the old ones, unmarked. The
// stack's own block comes first, once.
func (v *pulumiView) diffBlock(e engine.Event) []string {
	if e.Op == engine.OpDeleteReplaced {
		return nil // the replacement's block says it all
	}
	var lines []string
	if !v.rooted {
		v.rooted = true
		lines = append(lines, "  "+v.tree.root.typ+": (same)", "    [urn="+string(v.tree.root.urn)+"]")
	}
	r := v.tree.row(e)
	indent := strings.Repeat("    ", v.tree.depth(r))
	op := e.Op
	if op == engine.OpCreateReplacement {
		op = engine.OpReplace
	}
	o := pulumiOpOf(op)
	plan := o.plan
	if e.Op == engine.OpSame {
		plan = "same"
	}
	lines = append(lines, indent+v.p.paint(o.colour, padRight(o.symbol, 2)+v.typeOf(e)+": ("+plan+")"))
	if old := e.Old; old != nil && old.ID != "" {
		lines = append(lines, indent+"    [id="+old.ID+"]")
	}
	lines = append(lines, indent+"    [urn="+string(e.URN)+"]")
	if why := replaceWhy[e.ReplaceReason]; why != "" {
		lines = append(lines, indent+"    ["+why+"]")
	}
	switch {
	case e.Op == engine.OpCreate || e.Op == engine.OpImport:
		lines = append(lines, pulumiKeyLines(properties(e.Op, e.New), indent+"    ", nil)...)
	case e.Op == engine.OpDelete || e.Op == engine.OpDiscard:
		lines = append(lines, pulumiKeyLines(properties(e.Op, e.Old), indent+"    ", nil)...)
	default:
		lines = append(lines, v.changeLines(changes(e), indent+"  ")...)
	}
	return lines
}

// changeLines are a step's property changes, marked: "~ key: old =>
// new", "+ key: new", "- key: old", keys padded to the longest.
func (v *pulumiView) changeLines(cs []change, indent string) []string {
	width := 0
	for _, c := range cs {
		width = max(width, len(c.path))
	}
	var lines []string
	for _, c := range cs {
		key := v.p.paint(diffColours[c.kind], diffSymbols[c.kind]+" "+padRight(c.path, width)+": ")
		var vs []string
		switch c.kind {
		case resource.DiffAdd:
			vs = pulumiValueLines(c.new, indent+"    ")
		case resource.DiffDelete:
			vs = pulumiValueLines(c.old, indent+"    ")
		default:
			vs = []string{pulumiScalar(c.old) + " => " + pulumiScalar(c.new)}
		}
		lines = append(lines, indent+key+vs[0])
		lines = append(lines, vs[1:]...)
	}
	return lines
}
