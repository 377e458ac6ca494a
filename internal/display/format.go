package display

import (
	"sort"
	"strings"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// formatter renders events as the lines the plain and live views share.
type formatter struct {
	painter
	verbose bool
	diff    bool
}

const diffIndent = "      "

// name shows a resource as "pet (plinth:random:Pet)".
func name(e engine.Event) string {
	typ := e.Type
	if typ == "" {
		typ = e.URN.Type()
	}
	return e.URN.Name() + " (" + typ + ")"
}

// startLine is the line for a step starting: "  + creating pet (type)".
func (f formatter) startLine(e engine.Event) string {
	s := styleOf(e.Op)
	return "  " + f.paint(s.colour, s.symbol+" "+s.doing) + " " + name(e)
}

// doneLines are the lines for a finished step (or, in a preview, a
// planned one), with its property changes; none when it is not worth
// showing.
// replaceWhy says, in the plain and live views, why a replacement was
// forced.
var replaceWhy = map[engine.ReplaceReason]string{
	engine.ReplaceTainted:   "tainted",
	engine.ReplaceRequested: "replace requested",
	engine.ReplaceTriggered: "replace triggered",
}

func (f formatter) doneLines(e engine.Event) []string {
	if !f.shows(e) {
		return nil
	}
	s := styleOf(e.Op)
	symbol := s.symbol
	if e.Op == engine.OpRefresh {
		symbol = refreshSymbol(e)
	}
	if e.Err != nil {
		return []string{"  " + f.paint(colourRed, symbol+" "+s.plan+" failed") + " " + name(e) + ": " + firstLine(e.Err.Error())}
	}
	verb := s.done
	if e.Preview {
		verb = s.plan
	}
	var b strings.Builder
	b.WriteString("  " + f.paint(s.colour, symbol+" "+verb) + " " + name(e))
	if !e.Preview && e.Duration > 0 {
		b.WriteString(f.paint(colourDim, " ("+Duration(e.Duration)+")"))
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if why := replaceWhy[e.ReplaceReason]; why != "" {
		b.WriteString(" (" + why + ")")
	}
	cs := f.changesOf(e)
	if !f.diff && len(cs) > 0 {
		b.WriteString(" " + diffSummary(cs))
	}
	lines := []string{b.String()}
	if f.diff {
		lines = append(lines, f.diffLines(cs, diffIndent)...)
	}
	return lines
}

// shows reports whether a finished step gets a line: unchanged resources
// and the deletes that finish a replacement in a preview only when
// verbose.
func (f formatter) shows(e engine.Event) bool {
	if f.verbose || e.Err != nil {
		return true
	}
	switch e.Op {
	case engine.OpSame:
		return false
	case engine.OpDeleteReplaced:
		return !e.Preview
	}
	return true
}

// changesOf returns the property changes worth listing for a step: for
// updates, replacements and refreshes always; for creates and deletes only
// in diff mode, where every property is listed.
func (f formatter) changesOf(e engine.Event) []change {
	switch e.Op {
	case engine.OpUpdate, engine.OpReplace, engine.OpCreateReplacement, engine.OpRefresh:
		return changes(e)
	case engine.OpCreate, engine.OpDelete, engine.OpImport:
		if f.diff {
			return changes(e)
		}
	}
	return nil
}

func refreshSymbol(e engine.Event) string {
	switch {
	case e.New == nil:
		return "-"
	case len(e.Diff) > 0:
		return "~"
	}
	return " "
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// outputLines renders stack outputs, one "  key: value" line each,
// secrets masked.
func outputLines(o resource.Object) []string {
	if len(o) == 0 {
		return nil
	}
	keys := o.Keys()
	sort.Strings(keys)
	width := 0
	for _, k := range keys {
		width = max(width, len(k))
	}
	lines := []string{"Outputs:"}
	for _, k := range keys {
		lines = append(lines, "  "+k+":"+strings.Repeat(" ", width-len(k))+" "+Value(o[k]))
	}
	return lines
}

// summaryLine closes an operation: "Update done: 2 created (0.3s)",
// "Update failed (0.3s): 1 created", or for a preview "Preview: 2 to
// create", followed by how many stack outputs it changes.
func summaryLine(p painter, op Operation, res *engine.Result, err error, elapsed string, outputs int) string {
	counts := map[engine.StepOp]int{}
	if res != nil {
		counts = res.Counts
	}
	text := Counts(counts, op.Preview)
	switch {
	case outputs > 0 && text == "no changes":
		text = outputCount(outputs)
	case outputs > 0:
		text += ", " + outputCount(outputs)
	}
	label := "Preview"
	if !op.Preview {
		label = strings.ToUpper(op.Verb[:1]) + op.Verb[1:] + " done"
	}
	if err != nil {
		label = strings.TrimSuffix(label, " done") + " failed"
		if !op.Preview {
			label += " (" + elapsed + ")"
		}
		if total(counts) == 0 {
			return p.paint(colourRed, label)
		}
		return p.paint(colourRed, label) + ": " + text
	}
	if op.Preview {
		return p.paint(colourBold, label) + ": " + text
	}
	return p.paint(colourBold, label) + ": " + text + " (" + elapsed + ")"
}
