package display

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Style is how a text view words what it shows: plinth's own lines, or
// the plan and apply output a Terraform user knows. The program format
// picks it (internal/cli); the JSON view has one style.
type Style uint8

// The styles.
const (
	// StylePlinth is plinth's own: "+ create pet (plinth:random:Pet)".
	StylePlinth Style = iota
	// StyleTerraform is terraform's: a preview lists a block per
	// resource address with + ~ - -/+ +/- markers and ends with "Plan: N
	// to add, N to change, N to destroy."; an update says "Creating..."
	// and "Apply complete!".
	StyleTerraform
)

// terraformView shows an operation as terraform does. A preview's blocks
// are gathered and written in address order when it ends, as terraform
// writes its plan; an update's lines are written as its steps run.
type terraformView struct {
	opts Options
	p    painter

	mu      sync.Mutex
	op      Operation
	start   time.Time
	began   bool
	planned []engine.Event  // the preview's changes, in arrival order
	legends map[string]bool // the legend lines the plan needs
	// providers counts the steps of provider configurations the
	// engine counts with the resources (terraform never does), by op.
	providers map[engine.StepOp]int
	// readInPreview are the data sources the last preview read, whose
	// reads the update after it does not show again; opened the
	// ephemeral resources the operation opened (closeLines).
	readInPreview map[string]bool
	opened        []string
	// schemas are the providers' schemas of the types the program uses,
	// by schemaKey (TypeSchema).
	schemas map[string]map[string]schema.Property
	// outputTypes are the types of the outputs the program last
	// evaluated (OutputTypes).
	outputTypes map[string]json.RawMessage
}

func newTerraformView(opts Options) *terraformView {
	return &terraformView{opts: opts, p: painter{on: opts.Colour}}
}

func (v *terraformView) Begin(op Operation) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.began {
		fmt.Fprintln(v.opts.Out)
	}
	v.began = true
	v.op, v.start, v.planned, v.legends = op, v.opts.now(), nil, map[string]bool{}
	v.providers = map[engine.StepOp]int{}
	if op.Preview || v.readInPreview == nil {
		v.readInPreview = map[string]bool{}
	}
}

func (v *terraformView) Event(e engine.Event) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if e.Kind == engine.EventStepDone && e.Err == nil && state.IsProviderType(e.Type) && !defaultProvider(e.URN) && v.providers != nil {
		v.providers[e.Op]++
	}
	if v.hidden(e) {
		return
	}
	switch {
	case e.Op == engine.OpRefresh && e.Kind != engine.EventDiagnostic:
		v.refreshEvent(e)
	case e.Kind == engine.EventDiagnostic:
		d := Diagnostic{Severity: e.Severity, Summary: e.Message}
		if e.URN != "" {
			d.Where = e.URN.Name()
		}
		fmt.Fprintln(v.opts.Out, d.text(v.p))
	case e.Kind == engine.EventProvisionerOutput:
		fmt.Fprintf(v.opts.Out, "%s: %s\n", e.URN.Name(), e.Message)
	case e.Preview && e.Kind == engine.EventStepDone:
		if _, ok := tfActions[e.Op]; ok || e.Err != nil {
			v.planned = append(v.planned, e)
		}
	case !e.Preview:
		if l := v.progressLine(e); l != "" {
			fmt.Fprintln(v.opts.Out, l)
		}
	}
}

// refreshEvent shows a resource's refresh as terraform's plan and apply
// do: "random_pet.p: Refreshing state... [id=witty-otter]" when it
// starts, in a preview too, and nothing when it ends unless it failed;
// a preview lists it only when the object changed outside plinth, not
// every object it read. An object deleted outside is listed by a
// refresh of its own, but not by one that opens a plan: as in
// terraform's plan, the plan that follows shows it created again.
func (v *terraformView) refreshEvent(e engine.Event) {
	switch {
	case e.Kind == engine.EventStepStart:
		fmt.Fprintln(v.opts.Out, v.p.paint(colourBold, e.URN.Name())+": "+tfProgress[engine.OpRefresh].doing+"..."+idSuffix(e.Old))
	case e.Kind != engine.EventStepDone:
	case e.Preview && (e.Err != nil || e.New == nil && !v.op.Prelude || e.New != nil && len(e.Diff) > 0):
		v.planned = append(v.planned, e)
	case !e.Preview && e.Err != nil:
		fmt.Fprintln(v.opts.Out, v.progressLine(e))
	}
}

// hidden reports whether terraform would not mention an event: provider
// configurations (terraform never lists them) unless they failed, and
// the deletes that finish a replacement, which the replacement's own
// block already shows.
func (v *terraformView) hidden(e engine.Event) bool {
	if e.Err != nil || v.opts.Verbose {
		return false
	}
	return state.IsProviderType(e.Type) || e.Preview && e.Op == engine.OpDeleteReplaced
}

func (v *terraformView) Diagnostic(d Diagnostic) {
	v.mu.Lock()
	defer v.mu.Unlock()
	fmt.Fprintln(v.opts.Out, d.text(v.p))
}

func (v *terraformView) Notice(s string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	fmt.Fprintln(v.opts.Out, v.p.paint(colourYellow, s))
}

func (v *terraformView) End(o Outcome) {
	v.mu.Lock()
	defer v.mu.Unlock()
	writeLines(v.opts.Out, v.closeLines(o))
	if v.op.Prelude {
		writeLines(v.opts.Out, v.driftLines(o))
	} else if v.op.Preview {
		writeLines(v.opts.Out, v.planLines(o))
	} else {
		writeLines(v.opts.Out, v.applyEndLines(o))
	}
	if d, ok := targetingWarning(v.op); ok && o.Err == nil {
		fmt.Fprintln(v.opts.Out, d.text(v.p))
	}
	for _, d := range Diagnose(o.Err, v.opts.Verbose) {
		fmt.Fprintln(v.opts.errOut(), d.text(v.p))
	}
}

// targetingWarning is the warning terraform ends a plan or an apply
// limited by -target with (the refresh that opens a plan has none of its
// own), in plinth's words.
func targetingWarning(op Operation) (Diagnostic, bool) {
	switch {
	case !op.Targeted || op.Prelude:
		return Diagnostic{}, false
	case op.Preview:
		return Diagnostic{Severity: engine.SeverityWarning, Summary: "Resource targeting is in effect",
			Detail: "--target limited this plan to some resources, so it may leave out changes the configuration asks for.\n\nUse --target to recover from an error or a mistake, not for routine changes."}, true
	}
	return Diagnostic{Severity: engine.SeverityWarning, Summary: "Applied changes may be incomplete",
		Detail: "--target limited this apply to some resources, so the configuration may still ask for changes that were not made, and outputs may not be up to date. Run `plinth preview` to see what is left to do.\n\nUse --target to recover from an error or a mistake, not for routine changes."}, true
}

// driftLines close the refresh that opens an update or preview: nothing
// when no object changed outside plinth (the plan that follows says
// "No changes." once), else a note listing what changed, ahead of that
// plan, as terraform's plan does.
func (v *terraformView) driftLines(o Outcome) []string {
	if o.Err != nil || len(v.planned) == 0 {
		return nil
	}
	events := append([]engine.Event(nil), v.planned...)
	sort.SliceStable(events, func(i, j int) bool { return tfAddrLess(events[i].URN.Name(), events[j].URN.Name()) })
	lines := []string{"", v.p.paint(colourBold, "Note: Objects have changed outside of Plinth"), "",
		"Plinth found these changes made outside of Plinth since it last recorded",
		"the objects; the plan below is made against what it found:"}
	for _, e := range events {
		if e.Err != nil {
			continue
		}
		_, block := tfImportedBlock(v.p, e, "", v.schemaOf(e))
		lines = append(append(lines, ""), block...)
	}
	return append(lines, "", "Unless the configuration makes the same changes, or ignores these", "attributes with ignore_changes, the plan may undo or respond to them.",
		"", strings.Repeat("─", 77))
}

// planLines are a preview's output: the legend of the markers it uses,
// one block per resource in terraform's address order (tfAddrLess), the
// output changes and the "Plan:" line; "No changes." when there are none.
func (v *terraformView) planLines(o Outcome) []string {
	events := append([]engine.Event(nil), v.planned...)
	sort.SliceStable(events, func(i, j int) bool { return tfAddrLess(events[i].URN.Name(), events[j].URN.Name()) })
	events, imported := mergeImports(events)
	var blocks []string
	for _, e := range events {
		if e.Err != nil {
			continue
		}
		a, lines := tfImportedBlock(v.p, e, imported[e.URN], v.schemaOf(e))
		blocks = append(blocks, "")
		blocks = append(blocks, lines...)
		if a.legend != "" {
			v.legends[a.legend] = true
		}
	}
	outs := tfOutputChangeLines(v.p, o)
	if o.Err != nil {
		return nil
	}
	if len(blocks) == 0 && len(outs) == 0 {
		return v.noChangeLines()
	}
	var lines []string
	if len(blocks) > 0 {
		if legend := v.legend(); len(legend) > 0 { // none when it only imports
			lines = append(lines, "", "Resource actions are indicated with the following symbols:")
			lines = append(lines, legend...)
		}
		lines = append(lines, "", "Plinth will perform the following actions:")
		lines = append(lines, blocks...)
		lines = append(lines, "", v.p.paint(colourBold, "Plan:")+" "+v.planCounts(o.Result))
	}
	if len(outs) > 0 {
		lines = append(lines, "", "Changes to Outputs:")
		lines = append(lines, outs...)
	}
	if len(blocks) == 0 {
		lines = append(lines, "", "You can apply this plan to save these new output values to the Plinth", "state, without changing any real infrastructure.")
	}
	return lines
}

// mergeImports folds each import into the step planned after it for the
// same address (an import whose configuration differs from the object is
// an import, then an update), as terraform shows the two as one block:
// it returns the events without those imports, and the imported IDs by
// the address of the step that carries them.
func mergeImports(events []engine.Event) ([]engine.Event, map[resource.URN]string) {
	changed := map[resource.URN]bool{}
	for _, e := range events {
		if e.Op != engine.OpImport && e.Err == nil {
			changed[e.URN] = true
		}
	}
	imported := map[resource.URN]string{}
	out := events[:0]
	for _, e := range events {
		if e.Op == engine.OpImport && e.Err == nil && changed[e.URN] && e.New != nil {
			imported[e.URN] = e.New.ID
			continue
		}
		out = append(out, e)
	}
	return out, imported
}

// noChangeLines are a plan's lines when no resource or output changes:
// terraform's "No changes.", and, where provider configurations alone
// change (which terraform does not record, and so never lists), a line
// saying so, since plinth records them and `preview --detailed-exitcode`
// counts them.
func (v *terraformView) noChangeLines() []string {
	lines := []string{"", v.p.paint(colourBold, "No changes.") + " Your infrastructure matches the configuration."}
	n := 0
	for op, c := range v.providers {
		if op != engine.OpSame {
			n += c
		}
	}
	if n == 1 {
		lines = append(lines, "", "Plinth will update its record of 1 provider configuration (`plinth up` records it).")
	} else if n > 1 {
		lines = append(lines, "", fmt.Sprintf("Plinth will update its records of %d provider configurations (`plinth up` records them).", n))
	}
	return lines
}

// legend lists the markers a plan uses, in terraform's order.
func (v *terraformView) legend() []string {
	var out []string
	for _, a := range tfLegend {
		if v.legends[a.legend] {
			out = append(out, fmt.Sprintf("%3s %s", v.p.paint(a.colour, a.symbol), a.legend))
		}
	}
	return out
}

// planCounts is terraform's plan summary: "1 to add, 0 to change, 0 to
// destroy." A replacement adds one and destroys one.
func (v *terraformView) planCounts(res *engine.Result) string {
	add, change, destroy := v.tfCounts(res)
	return importCount(res, "%d to import, ") + fmt.Sprintf("%d to add, %d to change, %d to destroy.", add, change, destroy)
}

// importCount formats the number of imports, as terraform leads its
// summaries with it when there are any: "1 to import, ", "1 imported, ".
func importCount(res *engine.Result, format string) string {
	if res == nil || res.Counts[engine.OpImport] == 0 {
		return ""
	}
	return fmt.Sprintf(format, res.Counts[engine.OpImport])
}

// tfCounts are the resources added, changed and destroyed, as terraform
// counts them: without provider configurations.
func (v *terraformView) tfCounts(res *engine.Result) (add, change, destroy int) {
	if res == nil {
		return 0, 0, 0
	}
	c := func(op engine.StepOp) int { return max(res.Counts[op]-v.providers[op], 0) }
	return c(engine.OpCreate) + c(engine.OpReplace), c(engine.OpUpdate), c(engine.OpDelete) + c(engine.OpReplace)
}

// defaultProvider reports whether urn names a default provider, which
// the engine does not count.
func defaultProvider(urn resource.URN) bool {
	name := urn.Name()
	return name == "default" || strings.HasPrefix(name, "default_")
}

// progressLine is the line for a step of an update as it runs:
// "random_pet.a: Creating...", "random_pet.a: Creation complete after
// 1s [id=witty-otter]".
func (v *terraformView) progressLine(e engine.Event) string {
	w, ok := tfProgress[e.Op]
	if !ok || e.Op == engine.OpSame {
		return ""
	}
	addr := v.p.paint(colourBold, e.URN.Name())
	switch {
	case e.Kind == engine.EventStepStart && (e.Op == engine.OpCreate || e.Op == engine.OpCreateReplacement):
		return addr + ": " + w.doing + "..."
	case e.Kind == engine.EventStepStart:
		return addr + ": " + w.doing + "..." + idSuffix(e.Old)
	case e.Err != nil:
		return addr + ": " + v.p.paint(colourRed, w.failed) + ": " + firstLine(e.Err.Error())
	}
	line := addr + ": " + w.done
	if e.Op != engine.OpRefresh {
		line += " after " + tfDuration(e.Duration)
	}
	if e.New != nil && e.Op != engine.OpDelete && e.Op != engine.OpDeleteReplaced {
		line += idSuffix(e.New)
	}
	return line
}

// idSuffix is " [id=ID]" for a resource with a known ID.
func idSuffix(r *state.Resource) string {
	if r == nil || r.ID == "" || r.ID == engine.UnknownID {
		return ""
	}
	if r.SecretID {
		return " [id=" + tfSensitive + "]"
	}
	return " [id=" + r.ID + "]"
}

// tfDuration is terraform's "0s", "12s", "1m5s".
func tfDuration(d time.Duration) string {
	return d.Round(time.Second).String()
}

// applyEndLines close an update, refresh or destroy: the outputs and
// "Apply complete! Resources: 1 added, 0 changed, 0 destroyed."
func (v *terraformView) applyEndLines(o Outcome) []string {
	if o.Err != nil {
		return nil
	}
	add, change, destroy := v.tfCounts(o.Result)
	var s string
	switch v.op.Verb {
	case "destroy":
		s = fmt.Sprintf("Destroy complete! Resources: %d destroyed.", destroy)
	case "refresh":
		s = "Refresh complete!"
	default:
		s = "Apply complete! Resources: " + importCount(o.Result, "%d imported, ") + fmt.Sprintf("%d added, %d changed, %d destroyed.", add, change, destroy)
	}
	lines := []string{"", v.p.paint(colourGreen, s)}
	if o.ShowOutputs && o.Result != nil && len(o.Result.Outputs) > 0 {
		lines = append(lines, "", v.p.paint(colourGreen, "Outputs:"), "")
		keys := o.Result.Outputs.Keys()
		sort.Strings(keys)
		for _, k := range keys {
			lines = append(lines, tfOutputLines(k, o.Result.Outputs[k], v.outputTypes[k])...)
		}
	}
	return lines
}
