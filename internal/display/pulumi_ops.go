package display

import (
	"maps"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// pulumiOp is how pulumi shows one step operation: its marker, the word
// of a preview's plan, of a step in flight and of a finished one, and
// the words of the Resources summary.
type pulumiOp struct {
	symbol, plan, doing, done string
	toDo, did                 string // "to create", "created"
	colour                    colour
}

var pulumiOps = map[engine.StepOp]pulumiOp{
	engine.OpSame:              {" ", "", "", "", "unchanged", "unchanged", colourNone},
	engine.OpCreate:            {"+", "create", "creating", "created", "to create", "created", colourGreen},
	engine.OpUpdate:            {"~", "update", "updating", "updated", "to update", "updated", colourYellow},
	engine.OpDelete:            {"-", "delete", "deleting", "deleted", "to delete", "deleted", colourRed},
	engine.OpReplace:           {"+-", "replace", "replacing", "replaced", "to replace", "replaced", colourMagenta},
	engine.OpCreateReplacement: {"++", "create replacement", "creating replacement", "created replacement", "to create replacement", "created replacement", colourMagenta},
	engine.OpDeleteReplaced:    {"--", "delete original", "deleting original", "deleted original", "to delete original", "deleted original", colourRed},
	engine.OpRefresh:           {"~", "refresh", "refreshing", "refreshed", "to refresh", "refreshed", colourCyan},
	engine.OpImport:            {"=", "import", "importing", "imported", "to import", "imported", colourCyan},
	engine.OpDiscard:           {"-", "discard", "discarding", "discarded", "to discard", "discarded", colourRed},
	engine.OpRead:              {">", "read", "reading", "read", "to read", "read", colourCyan},
}

func pulumiOpOf(op engine.StepOp) pulumiOp {
	if s, ok := pulumiOps[op]; ok {
		return s
	}
	w := string(op)
	return pulumiOp{symbol: "*", plan: w, doing: w, done: w, toDo: "to " + w, did: w}
}

// pulumiSummaryOrder is the order of the Resources block's lines.
var pulumiSummaryOrder = []engine.StepOp{
	engine.OpCreate, engine.OpUpdate, engine.OpDelete, engine.OpReplace,
	engine.OpRefresh, engine.OpImport, engine.OpDiscard,
}

// pulumiUncounted are operations the Resources block leaves out, as
// pulumi's does: reading a resource (a get, a StackReference) changes
// nothing, so it is neither a change nor unchanged.
var pulumiUncounted = map[engine.StepOp]bool{engine.OpSame: true, engine.OpRead: true}

// pulumiResourceLines is the Resources block: one line per kind of
// change ("    + 3 to create", "    +-1 replaced"), then, when more than
// one kind changed, "    N changes. M unchanged", else "    M unchanged"
// when some did not, and "    K errored" for failed steps. Reads of
// existing resources (`get`) are not counted at all, as pulumi counts
// them neither as changes nor as unchanged.
func pulumiResourceLines(p painter, counts map[engine.StepOp]int, preview bool, errored int) []string {
	lines := []string{"Resources:"}
	kinds, changed := 0, 0
	for _, op := range pulumiOpsIn(counts) {
		n := counts[op]
		if n == 0 || op == engine.OpRead {
			continue
		}
		s := pulumiOpOf(op)
		word := s.did
		if preview {
			word = s.toDo
		}
		lines = append(lines, "    "+p.paint(s.colour, padRight(s.symbol, 2)+itoa(n)+" "+word))
		kinds++
		changed += n
	}
	same := counts[engine.OpSame]
	switch {
	case kinds > 1 && same > 0:
		lines = append(lines, "    "+itoa(changed)+" changes. "+itoa(same)+" unchanged")
	case kinds > 1:
		lines = append(lines, "    "+itoa(changed)+" changes")
	case same > 0:
		lines = append(lines, "    "+itoa(same)+" unchanged")
	}
	if errored > 0 {
		lines = append(lines, "    "+p.paint(colourRed, itoa(errored)+" errored"))
	}
	return lines
}

// pulumiOpsIn lists the changing operations of counts in summary order,
// any the order does not know last, by name.
func pulumiOpsIn(counts map[engine.StepOp]int) []engine.StepOp {
	known := maps.Clone(pulumiUncounted)
	ops := []engine.StepOp{}
	for _, op := range pulumiSummaryOrder {
		known[op] = true
		ops = append(ops, op)
	}
	var rest []string
	for op := range counts {
		if !known[op] {
			rest = append(rest, string(op))
		}
	}
	sort.Strings(rest)
	for _, op := range rest {
		ops = append(ops, engine.StepOp(op))
	}
	return ops
}

// pulumiDiffInfo is the Info of a changed resource: "[diff: +a~b,c-d]",
// the changed top-level properties grouped by kind, internal ones
// ("__provider") left out as pulumi leaves them out.
func pulumiDiffInfo(cs []change) string {
	groups := map[resource.DiffKind][]string{}
	seen := map[string]bool{}
	for _, c := range cs {
		root := rootOf(c.path)
		if !seen[root] && !internalKey(root) {
			seen[root] = true
			groups[c.kind] = append(groups[c.kind], root)
		}
	}
	if len(seen) == 0 || len(groups) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("[diff: ")
	for _, k := range []resource.DiffKind{resource.DiffAdd, resource.DiffDelete, resource.DiffUpdate} {
		if len(groups[k]) > 0 {
			b.WriteString(diffSymbols[k] + strings.Join(groups[k], ","))
		}
	}
	return b.String() + "]"
}

// pulumiDuration is a step's time as pulumi shows it: "(0.05s)", and
// "(0s)" for a step just started.
func pulumiDuration(d time.Duration) string {
	if d == 0 {
		return "(0s)"
	}
	return "(" + strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + "s)"
}

// pulumiTotal is an operation's time as pulumi shows it: whole seconds,
// at least one.
func pulumiTotal(d time.Duration) string {
	return max(d.Round(time.Second), time.Second).String()
}
