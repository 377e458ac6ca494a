package display

import (
	"strings"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// pulumiRow is one resource of the table pulumi draws: what happens to
// it and how far it has got.
type pulumiRow struct {
	urn    resource.URN
	typ    string
	parent resource.URN
	op     engine.StepOp
	phase  rowPhase
	took   time.Duration
	info   string
	diags  int // the diagnostics about it, counted in its Info
}

type rowPhase uint8

const (
	rowPlanned rowPhase = iota
	rowRunning
	rowDone
	rowFailed
)

// pulumiTree holds the rows of an operation in the order they appeared,
// under a root row for the stack, as pulumi's stack resource is the root
// of its tree. plinth records no stack resource: the root is drawn as
// unchanged; the Resources block counts it (pulumiStackOp).
type pulumiTree struct {
	root  pulumiRow
	rows  map[resource.URN]*pulumiRow
	order []resource.URN
}

// stackURN is the URN pulumi gives a stack's root resource.
func stackURN(op Operation) resource.URN {
	return resource.NewURN(op.Stack, op.Project, "", "pulumi:pulumi:Stack", op.Project+"-"+op.Stack)
}

func newPulumiTree(op Operation) *pulumiTree {
	return &pulumiTree{root: pulumiRow{urn: stackURN(op), typ: "pulumi:pulumi:Stack", op: engine.OpSame}, rows: map[resource.URN]*pulumiRow{}}
}

// row returns the row of an event's resource, adding it when new. An
// event of a stack resource is the root's.
func (t *pulumiTree) row(e engine.Event) *pulumiRow {
	if e.URN == "" || e.URN.Type() == "pulumi:pulumi:Stack" {
		return &t.root
	}
	r, ok := t.rows[e.URN]
	if !ok {
		typ := e.Type
		if typ == "" {
			typ = e.URN.Type()
		}
		r = &pulumiRow{urn: e.URN, typ: typ, op: engine.OpSame}
		t.rows[e.URN] = r
		t.order = append(t.order, e.URN)
	}
	for _, s := range []*state.Resource{e.New, e.Old} {
		if s != nil && s.Parent != "" && r.parent == "" {
			r.parent = s.Parent
		}
	}
	return r
}

// apply records a step event in its row. The two halves of a
// replacement show as the replacement, as in pulumi's table.
func (t *pulumiTree) apply(e engine.Event, info string) {
	r := t.row(e)
	switch e.Kind {
	case engine.EventDiagnostic:
		r.diags++
		return
	case engine.EventStepStart:
		r.phase = rowRunning
		if info != "" {
			r.info = info
		}
	case engine.EventStepDone:
		r.phase, r.took = rowDone, e.Duration
		if e.Err != nil {
			r.phase = rowFailed
		}
		if info != "" {
			r.info = info
		}
	default:
		return
	}
	if r.op != engine.OpReplace || !isReplacePart(e.Op) {
		r.op = e.Op
	}
	if isReplacePart(e.Op) {
		r.op = engine.OpReplace
	}
}

func isReplacePart(op engine.StepOp) bool {
	return op == engine.OpCreateReplacement || op == engine.OpDeleteReplaced
}

// parentOf returns the row a row hangs under: its parent's, else the
// root.
func (t *pulumiTree) parentOf(r *pulumiRow) *pulumiRow {
	if p, ok := t.rows[r.parent]; ok && p != r {
		return p
	}
	return &t.root
}

// children lists the rows under each row, in the order they appeared.
func (t *pulumiTree) children() map[*pulumiRow][]*pulumiRow {
	kids := map[*pulumiRow][]*pulumiRow{}
	for _, u := range t.order {
		r := t.rows[u]
		p := t.parentOf(r)
		kids[p] = append(kids[p], r)
	}
	return kids
}

// depth is how deep a row sits: 0 for the root.
func (t *pulumiTree) depth(r *pulumiRow) int {
	d := 0
	for r != &t.root && d < 64 {
		r = t.parentOf(r)
		d++
	}
	return d
}

// tableCell is one drawn row of the table.
type tableCell struct {
	row    *pulumiRow
	prefix string // the tree's lines: "├─ ", "│  └─ "
}

// visible lists the rows the table draws, depth first: the root, every
// row that changes, failed or has diagnostics, and the rows above them;
// every row when all is set.
func (t *pulumiTree) visible(all bool) []tableCell {
	kids := t.children()
	var walk func(r *pulumiRow, lead string) []tableCell
	shown := func(r *pulumiRow) bool { return all || t.interesting(r, kids) }
	walk = func(r *pulumiRow, lead string) []tableCell {
		var out []tableCell
		var keep []*pulumiRow
		for _, k := range kids[r] {
			if shown(k) {
				keep = append(keep, k)
			}
		}
		for i, k := range keep {
			branch, next := "├─ ", "│  "
			if i == len(keep)-1 {
				branch, next = "└─ ", "   "
			}
			out = append(out, tableCell{row: k, prefix: lead + branch})
			out = append(out, walk(k, lead+next)...)
		}
		return out
	}
	return append([]tableCell{{row: &t.root}}, walk(&t.root, "")...)
}

// interesting reports whether a row is worth a line of its own or
// leads to one.
func (t *pulumiTree) interesting(r *pulumiRow, kids map[*pulumiRow][]*pulumiRow) bool {
	if r.op != engine.OpSame || r.phase == rowFailed || r.diags > 0 {
		return true
	}
	for _, k := range kids[r] {
		if t.interesting(k, kids) {
			return true
		}
	}
	return false
}

// tableLines draws the table: "     Type   Name   Plan   Info" (Status
// instead of Plan once the operation changes things), then a row per
// visible resource, its marker in the first columns.
func (t *pulumiTree) tableLines(p painter, preview, all bool, now time.Time, started map[resource.URN]time.Time) []string {
	cells := t.visible(all)
	status := make([]string, len(cells))
	widths := [3]int{len("Type"), len("Name"), len("Plan")}
	hasInfo := false
	for i, c := range cells {
		status[i] = c.row.status(preview, now, started[c.row.urn])
		widths[0] = max(widths[0], len([]rune(c.prefix+c.row.typ)))
		widths[1] = max(widths[1], len(c.row.urn.Name()))
		widths[2] = max(widths[2], len(status[i]))
		hasInfo = hasInfo || c.row.infoText() != ""
	}
	head := "Plan"
	if !preview {
		head = "Status"
	}
	line := func(mark, typ, name, st, info string) string {
		s := " " + mark + "  " + padCols(typ, widths[0]+2) + padRight(name, widths[1]+2) + padRight(st, widths[2]+3)
		if hasInfo {
			s += "  " + info
		}
		return strings.TrimRight(s, " ")
	}
	header := line("  ", "Type", "Name", head, "Info")
	lines := []string{header}
	for i, c := range cells {
		o := pulumiOpOf(c.row.op)
		mark := padRight(o.symbol, 2)
		if c.row.phase == rowFailed {
			mark = p.paint(colourRed, mark)
		} else {
			mark = p.paint(o.colour, mark)
		}
		lines = append(lines, line(mark, c.prefix+c.row.typ, c.row.urn.Name(), status[i], c.row.infoText()))
	}
	return lines
}

// padCols pads s to width columns, counting each rune as one (the tree's
// box-drawing characters take one column but three bytes).
func padCols(s string, width int) string {
	n := len([]rune(s))
	if n >= width {
		return s
	}
	return s + strings.Repeat(" ", width-n)
}

// status is a row's Plan or Status cell.
func (r *pulumiRow) status(preview bool, now, started time.Time) string {
	o := pulumiOpOf(r.op)
	switch {
	case r.op == engine.OpSame:
		return ""
	case preview && r.phase == rowFailed:
		return o.plan + " failed"
	case preview:
		return o.plan
	case r.phase == rowRunning:
		if started.IsZero() {
			return o.doing
		}
		return o.doing + " (" + itoa(int(now.Sub(started)/time.Second)) + "s)"
	case r.phase == rowFailed:
		return "**" + o.doing + " failed**"
	case r.phase == rowDone:
		return o.done + " " + pulumiDuration(r.took)
	}
	return o.plan
}

// infoText is a row's Info cell: its diff, and how many diagnostics
// there are about it.
func (r *pulumiRow) infoText() string {
	parts := []string{}
	if r.info != "" {
		parts = append(parts, r.info)
	}
	if r.diags == 1 {
		parts = append(parts, "1 message")
	} else if r.diags > 1 {
		parts = append(parts, itoa(r.diags)+" messages")
	}
	return strings.Join(parts, "; ")
}
