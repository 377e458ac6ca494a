package display

import (
	"github.com/plinth-iac/plinth/internal/engine"
)

// plinth records no pulumi:pulumi:Stack resource, but pulumi does and
// counts it: a first update creates it ("+ 4 to create" for three
// resources), later ones leave it the same ("N unchanged" counts it), a
// refresh reads it and a destroy deletes it ("- N deleted"). The
// Pulumi style counts and shows it as pulumi would, from what the
// operation did to the stack's resources and outputs.

// pulumiStackOp is what pulumi would do to the stack resource in an
// operation with these counts, and false when pulumi would not count it
// (a refresh or destroy of a stack that records nothing) or plinth does
// not know (an import). recorded says the stack recorded resources or
// outputs before the operation (Outcome.recorded): it was updated before,
// so pulumi has its stack resource, to delete in a destroy.
func pulumiStackOp(verb string, counts map[engine.StepOp]int, recorded bool) (engine.StepOp, bool) {
	switch verb {
	case "destroy":
		return engine.OpDelete, total(counts) > 0 || recorded
	case "refresh":
		return engine.OpSame, total(counts) > 0
	case "update":
		if recorded || recordedBefore(counts) {
			return engine.OpSame, true
		}
		return engine.OpCreate, true // the stack's first update
	}
	return "", false // an import: whether pulumi counts the stack is not known here
}

// recordedBefore says whether counts include a resource the stack
// recorded before the operation: any step but a create, import or read.
func recordedBefore(counts map[engine.StepOp]int) bool {
	for op, n := range counts {
		switch op {
		case engine.OpCreate, engine.OpImport, engine.OpRead:
		default:
			if n > 0 {
				return true
			}
		}
	}
	return false
}

// withStack returns a copy of counts with the stack resource counted as
// pulumi counts it, and without the reads of an update: pulumi's summary
// leaves out a resource read (a get), counting it only when a read finds
// new outputs for a read step that carries the old ones, which none did
// in the recordings (e2e/pulumicorpus/testdata/go-read: a first read, and
// a re-read of a file that had changed, counted by pulumi v3.259 neither
// as read nor as unchanged).
func withStack(verb string, counts map[engine.StepOp]int, recorded bool) map[engine.StepOp]int {
	out := make(map[engine.StepOp]int, len(counts)+1)
	for op, n := range counts {
		if op == engine.OpRead && verb == "update" {
			continue
		}
		out[op] = n
	}
	if op, ok := pulumiStackOp(verb, counts, recorded); ok {
		out[op]++
	}
	return out
}

// pulumiCounts is the operation's counts as pulumi's summary gives them
// (withStack), with each retainOnDelete resource the program dropped
// counted as deleted, as pulumi counts it, where plinth's own views say
// discarded (the resource is left alone either way).
func pulumiCounts(verb string, r *engine.Result, recorded bool) map[engine.StepOp]int {
	out := withStack(verb, r.Counts, recorded)
	if n := min(r.Retained, out[engine.OpDiscard]); n > 0 {
		out[engine.OpDiscard] -= n
		out[engine.OpDelete] += n
		if out[engine.OpDiscard] == 0 {
			delete(out, engine.OpDiscard)
		}
	}
	return out
}

// stackLines are the lines pulumi writes, when its output is not a
// terminal, for the stack resource as the operation ends: " +
// pulumi:pulumi:Stack p-dev create" on a first update, "-  ... delete"
// on a destroy, and then, unless created, the stack's line with no
// operation ("    pulumi:pulumi:Stack p-dev"), with the count of the
// program's messages.
func (v *pulumiView) stackLines(op engine.StepOp) []string {
	root := v.tree.root
	same := "    " + root.typ + " " + root.urn.Name() // with no operation: "name  info"
	if info := root.infoText(); info != "" {
		same += "  " + info
	}
	o := pulumiOpOf(op)
	took := pulumiDuration(v.opts.now().Sub(v.start))
	switch {
	case op == engine.OpCreate && v.op.Preview:
		return []string{v.stackLine(o, o.plan)}
	case op == engine.OpCreate:
		return []string{v.stackLine(o, o.done+" "+took)}
	case op == engine.OpDelete && v.op.Preview:
		return []string{v.stackLine(o, o.plan), v.stackLine(o, o.plan), same} // pulumi writes the plan twice
	case op == engine.OpDelete:
		return []string{v.stackLine(o, o.doing+" "+pulumiDuration(0)), v.stackLine(o, o.done+" "+took), same}
	}
	return []string{same}
}

// stackLine is the stack resource's step line: " +  pulumi:pulumi:Stack
// p-dev create", with the count of the program's messages.
func (v *pulumiView) stackLine(o pulumiOp, word string) string {
	root := v.tree.root
	l := " " + v.p.paint(o.colour, padRight(o.symbol, 2)) + " " + root.typ + " " + root.urn.Name()
	if word != "" {
		l += " " + word
	}
	if info := root.infoText(); info != "" {
		l += " " + info
	}
	return l
}

// openingStackLines are the lines pulumi writes, when its output is not
// a terminal, as an update of a new stack starts: its stack resource's
// step begins before any other (" +  pulumi:pulumi:Stack p-dev create"
// in a preview, "creating (0s)" in the update), and ends after them all
// (stackLines).
func (v *pulumiView) openingStackLines() []string {
	if v.op.Verb != "update" || !v.op.NewStack {
		return nil
	}
	o := pulumiOpOf(engine.OpCreate)
	if v.op.Preview {
		return []string{v.stackLine(o, o.plan)}
	}
	return []string{v.stackLine(o, o.doing+" "+pulumiDuration(0))}
}

// markStack marks the tree's stack row as pulumi's would be when the
// operation ends: created by a first update, deleted by a destroy.
func (v *pulumiView) markStack(o Outcome) {
	if o.Result == nil || o.Err != nil {
		return
	}
	if op, ok := pulumiStackOp(v.op.Verb, o.Result.Counts, o.recorded()); ok && op != engine.OpSame {
		v.tree.root.op, v.tree.root.phase, v.tree.root.took = op, rowDone, v.opts.now().Sub(v.start)
	}
}
