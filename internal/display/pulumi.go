package display

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// StylePulumi is the output a Pulumi user knows, for a Pulumi program:
// "Previewing update (dev):", a line per step (" +  plinth:random:Pet
// pet create") or, on a terminal, the resource tree with its Type, Name
// and Plan (or Status) columns, then the Diagnostics, Outputs and
// Resources blocks ("    + 3 to create", "    2 unchanged") and, after a
// change, "Duration: 1s". With --diff every step shows its properties
// as `pulumi preview --diff` does.
const StylePulumi = StyleTerraform + 1

// pulumiView shows an operation as pulumi does. Plain output writes a
// line per event as pulumi does when its output is not a terminal; live
// output redraws the resource tree, as pulumi does on a terminal.
type pulumiView struct {
	opts Options
	p    painter
	live bool

	mu      sync.Mutex
	op      Operation
	start   time.Time
	tree    *pulumiTree
	started map[resource.URN]time.Time
	diags   []pulumiDiag
	errored int
	// sameReads counts reads of existing resources that found them as
	// recorded: the engine counts them unchanged, pulumi not at all.
	sameReads int
	// readDiscards counts records of read resources dropped, which
	// pulumi neither shows nor counts.
	readDiscards int
	// rooted says the stack's block was written (--diff).
	rooted bool
	height int // lines of the tree drawn last (live)
	drawn  time.Time
	stop   chan struct{} // stops the ticker that redraws the elapsed times (live)
	ticker sync.WaitGroup
}

// pulumiDiag is a diagnostic about a resource (or the stack), for the
// Diagnostics block.
type pulumiDiag struct {
	urn  resource.URN
	typ  string
	line string
}

func newPulumiView(opts Options) *pulumiView {
	return &pulumiView{opts: opts, p: painter{on: opts.Colour}, live: opts.Mode == Live && !opts.Diff}
}

// pulumiTitles are the lines that open an operation, by verb.
var pulumiTitles = map[string][2]string{
	"update":  {"Previewing update", "Updating"},
	"destroy": {"Previewing destroy", "Destroying"},
	"refresh": {"Previewing refresh", "Refreshing"},
	"import":  {"Previewing import", "Importing"},
}

func (op Operation) pulumiTitle() string {
	t, ok := pulumiTitles[op.Verb]
	if !ok {
		t = [2]string{"Previewing " + op.Verb, op.Verb}
	}
	if op.Preview {
		return t[0] + " (" + op.Stack + "):"
	}
	return t[1] + " (" + op.Stack + "):"
}

func (v *pulumiView) Begin(op Operation) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.op, v.start, v.tree = op, v.opts.now(), newPulumiTree(op)
	v.started, v.diags, v.errored, v.rooted, v.height = map[resource.URN]time.Time{}, nil, 0, false, 0
	v.sameReads, v.readDiscards = 0, 0 // a view may show a preview, then the update
	fmt.Fprintln(v.opts.Out, v.p.paint(colourBold, op.pulumiTitle()))
	fmt.Fprintln(v.opts.Out)
	if !v.live && !v.opts.Diff {
		writeLines(v.opts.Out, v.openingStackLines())
	}
	if v.live && v.opts.Tick >= 0 {
		every := v.opts.Tick
		if every == 0 {
			every = 200 * time.Millisecond
		}
		v.stop = make(chan struct{})
		v.ticker.Add(1)
		go v.tick(every, v.stop)
	}
}

// tick redraws the tree every so often, so that the times of the steps
// in flight go on counting between events.
func (v *pulumiView) tick(every time.Duration, stop chan struct{}) {
	defer v.ticker.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			v.mu.Lock()
			v.drawTree()
			v.mu.Unlock()
		}
	}
}

func (v *pulumiView) Event(e engine.Event) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if e.Kind == engine.EventStepDone && e.Op == engine.OpSame && e.New != nil && e.New.External {
		v.sameReads++
	}
	if e.Op == engine.OpDiscard && e.Old != nil && e.Old.External && e.Err == nil {
		// pulumi neither shows nor counts dropping the record of a
		// resource the program read (a get): pulumi/pulumi's
		// get_created program's destroy shows "- 2 to delete" only.
		if e.Kind == engine.EventStepDone {
			v.readDiscards++
		}
		return
	}
	if hidden(e, v.opts.Verbose) {
		return
	}
	switch e.Kind {
	case engine.EventStepStart:
		v.started[e.URN] = v.opts.now()
	case engine.EventStepDone:
		if e.Err != nil {
			v.errored++
		}
	case engine.EventDiagnostic:
		v.diags = append(v.diags, v.diagOf(e))
	case engine.EventProvisionerOutput:
		v.diags = append(v.diags, pulumiDiag{urn: e.URN, typ: e.Type, line: e.Message})
	}
	var info string
	switch {
	case e.Kind == engine.EventStepDone && e.Op == engine.OpDeleteReplaced:
		info = v.tree.row(e).info // the replacement's diff, as pulumi repeats it
	case e.Kind == engine.EventStepDone || e.Kind == engine.EventStepStart && e.Op != engine.OpRefresh:
		info = pulumiDiffInfo(changesShown(e))
	}
	refreshed := e.Kind == engine.EventStepDone && e.Op == engine.OpRefresh
	if refreshed {
		e.Op = refreshOutcome(e)
	}
	v.tree.apply(e, info)
	if v.live {
		if v.opts.Tick < 0 || v.opts.now().Sub(v.drawn) >= redrawEvery {
			v.drawTree()
		}
		return
	}
	if refreshed && e.Op == engine.OpSame && e.Err == nil && !v.opts.Diff {
		// pulumi writes a line for a resource a refresh found as it was
		fmt.Fprintln(v.opts.Out, "    "+v.typeOf(e)+" "+e.URN.Name())
		return
	}
	writeLines(v.opts.Out, v.eventLines(e, info))
}

// refreshOutcome is what pulumi calls a finished refresh: an update when
// it found drift, a delete when the resource is gone, same otherwise.
func refreshOutcome(e engine.Event) engine.StepOp {
	switch {
	case e.Err != nil:
		return engine.OpRefresh
	case e.New == nil:
		return engine.OpDelete
	case len(changes(e)) > 0:
		return engine.OpUpdate
	}
	return engine.OpSame
}

// diagOf turns a diagnostic event into a line of the Diagnostics block.
func (v *pulumiView) diagOf(e engine.Event) pulumiDiag {
	return pulumiDiag{urn: e.URN, typ: e.Type, line: e.Severity.String() + ": " + e.Message}
}

// changesShown are the changes a step's Info names: those of updates and
// replacements.
func changesShown(e engine.Event) []change {
	switch e.Op {
	case engine.OpUpdate, engine.OpReplace, engine.OpCreateReplacement, engine.OpRefresh:
		return changes(e)
	}
	return nil
}

// eventLines are the lines pulumi writes for an event when its output is
// not a terminal: " +  type name creating (0s)", " +  type name created
// (0.05s) [diff: ~x]"; with --diff, a finished step's properties.
func (v *pulumiView) eventLines(e engine.Event, info string) []string {
	if e.Kind == engine.EventDiagnostic {
		return []string{"    " + v.typeOf(e) + " " + v.nameOf(e) + "  " + v.diags[len(v.diags)-1].line}
	}
	if e.Kind == engine.EventProvisionerOutput {
		return []string{"    " + v.typeOf(e) + " " + v.nameOf(e) + "  " + e.Message}
	}
	if e.Op == engine.OpSame && !v.opts.Verbose {
		return nil
	}
	if v.opts.Diff && e.Kind == engine.EventStepDone && e.Err == nil {
		return v.diffBlock(e)
	}
	o := pulumiOpOf(e.Op)
	var word string
	switch {
	case e.Kind == engine.EventStepStart && e.Preview:
		return nil
	case e.Kind == engine.EventStepStart:
		word = o.doing + " " + pulumiDuration(0)
	case e.Err != nil && e.Preview:
		word = o.plan + " failed"
	case e.Err != nil:
		word = o.doing + " failed"
	case e.Preview:
		word = o.plan
	default:
		word = o.done + " " + pulumiDuration(e.Duration)
	}
	line := " " + v.p.paint(o.colour, padRight(o.symbol, 2)) + " " + v.typeOf(e) + " " + e.URN.Name() + " " + word
	if info != "" {
		line += " " + info
	}
	lines := []string{line}
	if e.Kind == engine.EventStepDone && e.Op == engine.OpCreateReplacement && e.Err == nil {
		lines = append(lines, v.replacedLine(e, info))
	}
	if e.Err != nil {
		lines = append(lines, "    "+v.typeOf(e)+" "+e.URN.Name()+"  "+v.p.paint(colourRed, "error: ")+firstLine(e.Err.Error()))
	}
	return lines
}

// replacedLine is the line pulumi writes between the halves of a
// replacement, for its replace step: " +- type name replace".
func (v *pulumiView) replacedLine(e engine.Event, info string) string {
	o := pulumiOpOf(engine.OpReplace)
	word := o.plan
	if !e.Preview {
		word = o.done + " (0.00s)" // the replace step itself takes no time
	}
	line := " " + v.p.paint(o.colour, o.symbol) + " " + v.typeOf(e) + " " + e.URN.Name() + " " + word
	if info != "" {
		line += " " + info
	}
	return line
}

func (v *pulumiView) typeOf(e engine.Event) string {
	if e.URN == "" {
		return v.tree.root.typ
	}
	if e.Type != "" {
		return e.Type
	}
	return e.URN.Type()
}

func (v *pulumiView) nameOf(e engine.Event) string {
	if e.URN == "" {
		return v.tree.root.urn.Name()
	}
	return e.URN.Name()
}

// Diagnostic shows a message the program logged as pulumi does: on a
// line under its resource (or the stack) as it comes, and again in the
// Diagnostics block; any other diagnostic as plinth writes it.
func (v *pulumiView) Diagnostic(d Diagnostic) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !d.Logged || v.tree == nil { // before any operation: no tree to hang it on
		v.interject(d.text(v.p))
		return
	}
	pd := pulumiDiag{urn: resource.URN(d.Where), line: d.Detail}
	if d.Severity != engine.SeverityInfo {
		pd.line = d.Severity.String() + ": " + d.Detail
	}
	v.diags = append(v.diags, pd)
	v.tree.row(engine.Event{URN: pd.urn}).diags++
	if v.live {
		v.drawTree()
		return
	}
	u := pd.urn
	if u == "" {
		u = v.tree.root.urn
	}
	v.interject("    " + u.Type() + " " + u.Name() + "  " + strings.ReplaceAll(pd.line, "\n", "\n    "))
}

func (v *pulumiView) Notice(s string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.interject(v.p.paint(colourYellow, s))
}

// interject writes a line between the events, above the tree when it is
// drawn.
func (v *pulumiView) interject(s string) {
	if v.live && v.height > 0 {
		v.erase()
		fmt.Fprintln(v.opts.Out, s)
		v.drawTree()
		return
	}
	fmt.Fprintln(v.opts.Out, s)
}

func (v *pulumiView) End(o Outcome) {
	if v.stop != nil {
		close(v.stop)
		v.ticker.Wait()
		v.stop = nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.live {
		v.markStack(o)
		v.drawTree()
		v.height = 0
		fmt.Fprintln(v.opts.Out)
	}
	if !v.live && !v.opts.Diff && o.Result != nil && o.Err == nil {
		if op, ok := pulumiStackOp(v.op.Verb, o.Result.Counts, o.recorded()); ok {
			writeLines(v.opts.Out, v.stackLines(op))
		}
	}
	// Each block ends with a blank line, as pulumi's do.
	for _, block := range [][]string{v.diagnosticLines(), v.outputLines(o)} {
		if len(block) > 0 {
			writeLines(v.opts.Out, append(block, ""))
		}
	}
	var counts map[engine.StepOp]int
	if o.Result != nil {
		counts = pulumiCounts(v.op.Verb, o.Result, o.recorded())
		counts[engine.OpSame] = max(0, counts[engine.OpSame]-v.sameReads)
		if counts[engine.OpDiscard] -= v.readDiscards; counts[engine.OpDiscard] <= 0 {
			delete(counts, engine.OpDiscard)
		}
	}
	errored := v.errored
	if o.Err != nil && o.Result != nil {
		errored++ // pulumi counts its stack resource errored too when an operation fails
	}
	if total(counts) > 0 || errored > 0 || o.Err == nil {
		writeLines(v.opts.Out, pulumiResourceLines(v.p, counts, v.op.Preview, errored))
		fmt.Fprintln(v.opts.Out)
	}
	if !v.op.Preview {
		fmt.Fprintln(v.opts.Out, "Duration: "+pulumiTotal(v.opts.now().Sub(v.start)))
		fmt.Fprintln(v.opts.Out)
	}
	writeLines(v.opts.errOut(), v.failureLines(o.Err))
}

// outputLines are the Outputs block: every output after a change, those
// a preview changes, all of them when a preview has none recorded.
func (v *pulumiView) outputLines(o Outcome) []string {
	if o.Result == nil || o.Err != nil || !o.ShowOutputs && !o.DiffOutputs {
		return nil
	}
	var changes map[string]resource.DiffKind
	if len(o.PriorOutputs) > 0 { // a new stack's outputs are listed, not marked
		changes = OutputChanges(o.PriorOutputs, o.Result.Outputs)
	}
	onlyChanged := v.op.Preview && len(o.PriorOutputs) > 0
	return pulumiOutputLines(v.p, o.PriorOutputs, o.Result.Outputs, changes, onlyChanged)
}

// diagnosticLines are the Diagnostics block: what the program and the
// providers said, grouped by resource, the stack's first.
func (v *pulumiView) diagnosticLines() []string {
	if len(v.diags) == 0 {
		return nil
	}
	var order []resource.URN
	byURN := map[resource.URN][]pulumiDiag{}
	for _, d := range v.diags {
		if _, ok := byURN[d.urn]; !ok {
			order = append(order, d.urn)
		}
		byURN[d.urn] = append(byURN[d.urn], d)
	}
	lines := []string{"Diagnostics:"}
	for _, u := range order {
		ds := byURN[u]
		lines = append(lines, "  "+v.heading(u, ds[0].typ)+":")
		for _, d := range ds {
			lines = append(lines, indentLines(d.line, "    ")...)
		}
		lines = append(lines, "")
	}
	return lines[:len(lines)-1]
}

// heading names a resource as the Diagnostics block does: "type (name)".
func (v *pulumiView) heading(u resource.URN, typ string) string {
	if u == "" {
		return v.tree.root.typ + " (" + v.tree.root.urn.Name() + ")"
	}
	if typ == "" {
		typ = u.Type()
	}
	return typ + " (" + u.Name() + ")"
}

// failureLines are the diagnostics of a failed operation, under the
// resource they are about (or the stack), each naming plinth and, where
// known, the program's file and line.
func (v *pulumiView) failureLines(err error) []string {
	ds := Diagnose(err, v.opts.Verbose)
	if len(ds) == 0 {
		return nil
	}
	lines := []string{"Diagnostics:"}
	for _, d := range ds {
		u := resource.URN("")
		if strings.HasPrefix(d.Where, "urn:") {
			u, d.Where = resource.URN(d.Where), ""
		}
		lines = append(lines, "  "+v.heading(u, "")+":")
		text := d.text(v.p)
		text = strings.Replace(text, ": ", ": plinth: ", 1)
		lines = append(lines, indentLines(text, "    ")...)
		lines = append(lines, "")
	}
	return lines
}

func indentLines(s string, indent string) []string {
	parts := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range parts {
		parts[i] = indent + parts[i]
	}
	return parts
}

// drawTree erases the tree drawn last and draws it anew (live).
func (v *pulumiView) drawTree() {
	v.erase()
	lines := v.tree.tableLines(v.p, v.op.Preview, v.opts.Verbose, v.opts.now(), v.started)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(fit(l, v.opts.Width) + "\n")
	}
	fmt.Fprint(v.opts.Out, b.String())
	v.height, v.drawn = len(lines), v.opts.now()
}

func (v *pulumiView) erase() {
	if v.height > 0 {
		fmt.Fprintf(v.opts.Out, "\x1b[%dA\x1b[J", v.height)
	}
	v.height = 0
}
