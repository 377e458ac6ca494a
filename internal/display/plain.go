package display

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
)

// plainView writes one line per event, in the order events arrive.
type plainView struct {
	opts Options
	f    formatter

	mu    sync.Mutex
	op    Operation
	start time.Time
	began bool // an operation was shown before: leave a blank line
}

func newPlainView(opts Options) *plainView {
	return &plainView{opts: opts, f: formatter{painter: painter{on: opts.Colour}, verbose: opts.Verbose, diff: opts.Diff}}
}

func (v *plainView) Begin(op Operation) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.op, v.start = op, v.opts.now()
	if v.began {
		fmt.Fprintln(v.opts.Out)
	}
	v.began = true
	fmt.Fprintln(v.opts.Out, v.f.paint(colourBold, op.title()))
}

func (v *plainView) Event(e engine.Event) {
	if hidden(e, v.opts.Verbose) {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, l := range eventLines(v.f, e) {
		fmt.Fprintln(v.opts.Out, l)
	}
}

// eventLines are the permanent lines of an event in the plain and live
// views: a step starting (not in a preview, where steps are quick), a
// step finishing, or a diagnostic.
func eventLines(f formatter, e engine.Event) []string {
	switch e.Kind {
	case engine.EventStepStart:
		if e.Preview || (e.Op == engine.OpSame && !f.verbose) {
			return nil
		}
		return []string{f.startLine(e)}
	case engine.EventStepDone:
		return f.doneLines(e)
	case engine.EventDiagnostic:
		d := Diagnostic{Severity: e.Severity, Summary: e.Message}
		if e.URN != "" {
			d.Where = string(e.URN)
		}
		return []string{d.text(f.painter)}
	case engine.EventProvisionerOutput:
		return []string{fmt.Sprintf("    %s: %s", e.URN.Name(), e.Message)}
	}
	return nil
}

func (v *plainView) Diagnostic(d Diagnostic) {
	v.mu.Lock()
	defer v.mu.Unlock()
	fmt.Fprintln(v.opts.Out, d.text(v.f.painter))
}

func (v *plainView) Notice(s string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	fmt.Fprintln(v.opts.Out, v.f.paint(colourYellow, s))
}

func (v *plainView) End(o Outcome) {
	v.mu.Lock()
	defer v.mu.Unlock()
	writeEnd(v.opts, v.f.painter, v.op, o, v.opts.now().Sub(v.start))
}

// writeEnd writes what closes an operation in the plain and live views:
// the outputs, the summary line and the diagnostics of a failure.
func writeEnd(opts Options, p painter, op Operation, o Outcome, elapsed time.Duration) {
	if o.ShowOutputs && o.Result != nil {
		writeLines(opts.Out, outputLines(o.Result.Outputs))
	}
	changes := o.outputChanges()
	if len(changes) > 0 {
		writeLines(opts.Out, outputChangeLines(p, o.PriorOutputs, o.Result.Outputs, changes))
	}
	fmt.Fprintln(opts.Out, summaryLine(p, op, o.Result, o.Err, Duration(elapsed), len(changes)))
	for _, d := range Diagnose(o.Err, opts.Verbose) {
		fmt.Fprintln(opts.errOut(), d.text(p))
	}
}

func writeLines(w io.Writer, lines []string) {
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}
