package display

import (
	"sort"
	"strings"

	"github.com/plinth-iac/plinth/internal/engine"
)

// opStyle is how one step operation is shown: its marker, the word for a
// planned step (preview), a step in flight and a finished one.
type opStyle struct {
	symbol  string
	plan    string
	doing   string
	done    string
	colour  colour
	summary string // the word in summaries after a count: "2 created"
}

var opStyles = map[engine.StepOp]opStyle{
	engine.OpSame:              {" ", "same", "checking", "unchanged", colourNone, "unchanged"},
	engine.OpCreate:            {"+", "create", "creating", "created", colourGreen, "created"},
	engine.OpUpdate:            {"~", "update", "updating", "updated", colourYellow, "updated"},
	engine.OpDelete:            {"-", "delete", "deleting", "deleted", colourRed, "deleted"},
	engine.OpReplace:           {"+-", "replace", "replacing", "replaced", colourMagenta, "replaced"},
	engine.OpCreateReplacement: {"+-", "replace", "replacing", "replaced", colourMagenta, "replaced"},
	engine.OpDeleteReplaced:    {"--", "delete original", "deleting original", "deleted original", colourRed, "originals deleted"},
	engine.OpRefresh:           {"~", "refresh", "refreshing", "refreshed", colourCyan, "refreshed"},
	engine.OpImport:            {"=", "import", "importing", "imported", colourCyan, "imported"},
	engine.OpDiscard:           {"-", "discard", "discarding", "discarded", colourRed, "discarded"},
	engine.OpRead:              {">", "read", "reading", "read", colourCyan, "read"},
}

// planWords are the summary words of a preview: "2 to create".
var planWords = map[engine.StepOp]string{
	engine.OpSame: "unchanged", engine.OpCreate: "to create", engine.OpUpdate: "to update",
	engine.OpDelete: "to delete", engine.OpReplace: "to replace", engine.OpRefresh: "to refresh",
	engine.OpImport: "to import", engine.OpDiscard: "to discard", engine.OpRead: "to read",
}

func styleOf(op engine.StepOp) opStyle {
	if s, ok := opStyles[op]; ok {
		return s
	}
	w := string(op)
	return opStyle{symbol: "*", plan: w, doing: w, done: w, summary: w}
}

// summaryOrder lists operations in the order a summary names them.
var summaryOrder = []engine.StepOp{
	engine.OpCreate, engine.OpUpdate, engine.OpReplace, engine.OpDelete,
	engine.OpImport, engine.OpRead, engine.OpRefresh, engine.OpDiscard, engine.OpSame,
}

// Counts formats per-operation counts as "2 created, 1 updated, 3
// unchanged" (or "2 to create, ..." for a preview); "no changes" when
// every count is zero.
func Counts(counts map[engine.StepOp]int, preview bool) string {
	var parts []string
	seen := map[engine.StepOp]bool{}
	add := func(op engine.StepOp) {
		seen[op] = true
		if n := counts[op]; n > 0 {
			parts = append(parts, itoa(n)+" "+countWord(op, preview))
		}
	}
	for _, op := range summaryOrder {
		add(op)
	}
	var rest []string
	for op := range counts {
		if !seen[op] {
			rest = append(rest, string(op))
		}
	}
	sort.Strings(rest)
	for _, op := range rest {
		add(engine.StepOp(op))
	}
	if len(parts) == 0 {
		return "no changes"
	}
	return strings.Join(parts, ", ")
}

func countWord(op engine.StepOp, preview bool) string {
	if preview {
		if w, ok := planWords[op]; ok {
			return w
		}
	}
	return styleOf(op).summary
}
