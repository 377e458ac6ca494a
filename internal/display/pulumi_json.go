package display

import (
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// PreviewDigest is a preview written as one JSON document shaped like
// what `pulumi preview --json` writes, for the tools that read it: the
// steps that change something, what was said, how long it took (in
// nanoseconds), the count of each operation and the stack outputs.
// Secrets are "[secret]"; a value known only after the update is
// pulumiUnknown, as pulumi writes it.
type PreviewDigest struct {
	Steps         []DigestStep       `json:"steps"`
	Diagnostics   []DigestDiagnostic `json:"diagnostics,omitempty"`
	Duration      int64              `json:"duration"`
	ChangeSummary map[string]int     `json:"changeSummary"`
	Outputs       map[string]any     `json:"outputs,omitempty"`
}

// DigestStep is one planned step. Op is pulumi's name of the operation
// (create, update, delete, replace, read, refresh, import, discard).
type DigestStep struct {
	Op             string                        `json:"op"`
	URN            string                        `json:"urn"`
	Provider       string                        `json:"provider,omitempty"`
	OldState       *DigestState                  `json:"oldState,omitempty"`
	NewState       *DigestState                  `json:"newState,omitempty"`
	DiffReasons    []string                      `json:"diffReasons,omitempty"`
	ReplaceReasons []string                      `json:"replaceReasons,omitempty"`
	DetailedDiff   map[string]DigestPropertyDiff `json:"detailedDiff"`
}

// DigestState is a resource before or after a step.
type DigestState struct {
	URN                  string              `json:"urn"`
	Custom               bool                `json:"custom"`
	ID                   string              `json:"id,omitempty"`
	Type                 string              `json:"type"`
	Inputs               map[string]any      `json:"inputs,omitempty"`
	Outputs              map[string]any      `json:"outputs,omitempty"`
	Parent               string              `json:"parent,omitempty"`
	Protect              bool                `json:"protect,omitempty"`
	Dependencies         []string            `json:"dependencies,omitempty"`
	Provider             string              `json:"provider,omitempty"`
	PropertyDependencies map[string][]string `json:"propertyDependencies,omitempty"`
}

// DigestPropertyDiff is one entry of a step's detailed diff: add,
// update or delete, with "-replace" when it forces a replacement.
type DigestPropertyDiff struct {
	Kind      string `json:"kind"`
	InputDiff bool   `json:"inputDiff"`
}

// DigestDiagnostic is a message of the preview.
type DigestDiagnostic struct {
	URN      string `json:"urn,omitempty"`
	Message  string `json:"message"`
	Severity string `json:"severity"`
}

// pulumiUnknown is how pulumi writes a value not known until the update.
const pulumiUnknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"

// digestView writes each preview as a PreviewDigest when it ends; an
// operation that is not a preview it leaves to the JSON event view.
type digestView struct {
	events *jsonView

	mu      sync.Mutex
	opts    Options
	preview bool
	verb    string
	op      Operation
	// phase is where the steps of the phase under way start in the
	// document (after a refresh that leads to it).
	phase int
	// leads says the preview under way continues into the next one,
	// which writes the document; held, that it ended so.
	leads, held bool
	start       time.Time
	digest      PreviewDigest
}

func newDigestView(opts Options) *digestView {
	return &digestView{events: newJSONView(opts), opts: opts}
}

func (v *digestView) Begin(op Operation) {
	v.mu.Lock()
	if v.held && !op.Preview {
		v.write() // the preview it led to never came
	}
	if !v.held || !op.Preview {
		v.start = v.opts.now()
		v.digest = PreviewDigest{Steps: []DigestStep{}}
	}
	v.digest.ChangeSummary, v.digest.Outputs = map[string]int{}, nil // the last phase's
	v.preview, v.verb, v.op, v.leads, v.held = op.Preview, op.Verb, op, op.Prelude, false
	v.phase = len(v.digest.Steps)
	v.mu.Unlock()
	if !op.Preview {
		v.events.Begin(op)
	}
}

func (v *digestView) Event(e engine.Event) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.preview {
		v.events.Event(e)
		return
	}
	if hidden(e, v.opts.Verbose) {
		return
	}
	switch {
	case e.Kind == engine.EventDiagnostic:
		v.digest.Diagnostics = append(v.digest.Diagnostics, DigestDiagnostic{URN: string(e.URN), Message: v.opts.Scrubber.Scrub(e.Message), Severity: e.Severity.String()})
	case e.Kind == engine.EventStepDone && e.Err != nil:
		v.digest.Diagnostics = append(v.digest.Diagnostics, DigestDiagnostic{URN: string(e.URN), Message: v.opts.Scrubber.Scrub(e.Err.Error()), Severity: "error"})
	case e.Kind == engine.EventStepDone && e.Op != engine.OpSame && e.Op != engine.OpDeleteReplaced:
		v.digest.Steps = append(v.digest.Steps, v.step(e))
	}
}

// step converts a planned step.
func (v *digestView) step(e engine.Event) DigestStep {
	op := e.Op
	if op == engine.OpCreateReplacement {
		op = engine.OpReplace // pulumi lists a replacement as one step
	}
	s := DigestStep{Op: string(op), URN: string(e.URN), OldState: v.state(e.Old), NewState: v.state(e.New)}
	for _, r := range []*state.Resource{e.New, e.Old} {
		if r != nil && s.Provider == "" {
			s.Provider = r.Provider
		}
	}
	if op == engine.OpUpdate || op == engine.OpReplace {
		s.DetailedDiff = map[string]DigestPropertyDiff{}
		for _, c := range changes(e) {
			kind := c.kind.String()
			if c.replaces {
				kind += "-replace"
				s.ReplaceReasons = appendOnce(s.ReplaceReasons, rootOf(c.path))
			}
			s.DiffReasons = appendOnce(s.DiffReasons, rootOf(c.path))
			s.DetailedDiff[c.path] = DigestPropertyDiff{Kind: kind, InputDiff: e.Diff == nil || e.Diff[c.path].InputDiff}
		}
	}
	return s
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// state converts a resource, nil for none.
func (v *digestView) state(r *state.Resource) *DigestState {
	if r == nil {
		return nil
	}
	d := &DigestState{URN: string(r.URN), Custom: r.Custom, ID: r.ID, Type: r.Type, Parent: string(r.Parent),
		Protect: r.Protect, Provider: r.Provider,
		Inputs: v.object(r.Inputs), Outputs: v.object(r.Outputs)}
	switch {
	case r.ID == pulumiUnknown:
		d.ID = "" // not known before it is created: pulumi writes none
	case r.SecretID:
		d.ID = "[secret]"
	}
	for _, u := range r.Dependencies {
		d.Dependencies = append(d.Dependencies, string(u))
	}
	if len(r.PropertyDependencies) > 0 {
		d.PropertyDependencies = map[string][]string{}
		for k, us := range r.PropertyDependencies {
			list := []string{}
			for _, u := range us {
				list = append(list, string(u))
			}
			d.PropertyDependencies[k] = list
		}
	}
	return d
}

// object converts properties to JSON as pulumi writes them in a preview.
func (v *digestView) object(o resource.Object) map[string]any {
	if len(o) == 0 {
		return nil
	}
	out := make(map[string]any, len(o))
	for k, val := range o {
		out[k] = digestValue(val)
	}
	scrubAny(v.opts.Scrubber, out)
	return out
}

func digestValue(val resource.Value) any {
	switch val.Kind() {
	case resource.UnknownKind:
		return pulumiUnknown
	case resource.SecretKind:
		return "[secret]"
	case resource.ArrayKind:
		out := make([]any, len(val.Array()))
		for i, e := range val.Array() {
			out[i] = digestValue(e)
		}
		return out
	case resource.ObjectKind:
		out := map[string]any{}
		for k, e := range val.Object() {
			out[k] = digestValue(e)
		}
		return out
	}
	return JSONValue(val)
}

func (v *digestView) Diagnostic(d Diagnostic) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.preview {
		v.events.Diagnostic(d)
		return
	}
	v.digest.Diagnostics = append(v.digest.Diagnostics, digestDiagnostic(v.opts.Scrubber, d))
}

func digestDiagnostic(s *Scrubber, d Diagnostic) DigestDiagnostic {
	msg := "plinth: " + d.Summary
	if d.Where != "" {
		msg = d.Where + ": " + msg
	}
	if d.Detail != "" {
		msg += ": " + d.Detail
	}
	return DigestDiagnostic{Message: s.Scrub(msg), Severity: d.Severity.String()}
}

// Notice goes to the error stream as text: the output stays one
// document.
func (v *digestView) Notice(s string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.preview {
		v.events.Notice(s)
		return
	}
	_, _ = v.opts.errOut().Write([]byte(s + "\n"))
}

func (v *digestView) End(o Outcome) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.preview {
		v.events.End(o)
		return
	}
	for _, d := range Diagnose(o.Err, v.opts.Verbose) {
		v.digest.Diagnostics = append(v.digest.Diagnostics, digestDiagnostic(v.opts.Scrubber, d))
	}
	v.digest.Duration = int64(v.opts.now().Sub(v.start))
	if o.Result != nil {
		for op, n := range pulumiCounts(v.verb, o.Result, o.recorded()) {
			if n > 0 {
				v.digest.ChangeSummary[string(op)] = n
			}
		}
		v.addStackStep(o)
		v.digest.Outputs = v.object(o.Result.Outputs)
	}
	if v.leads && o.Err == nil {
		v.held = true // the next preview goes on with this document
		return
	}
	v.write()
}

// addStackStep adds the step pulumi lists for its stack resource, which
// plinth does not record: first in its phase (created by a stack's first
// update, the same in a later one, refreshed by a refresh), last in a
// destroy (deleted).
func (v *digestView) addStackStep(o Outcome) {
	op, ok := pulumiStackOp(v.verb, o.Result.Counts, o.recorded())
	if !ok {
		return
	}
	urn := string(stackURN(v.op))
	stack := func(outputs resource.Object) *DigestState {
		return &DigestState{URN: urn, Type: "pulumi:pulumi:Stack", Outputs: v.object(outputs)}
	}
	step := DigestStep{Op: string(op), URN: urn, OldState: stack(o.PriorOutputs), NewState: stack(nil)}
	switch {
	case op == engine.OpDelete:
		step.NewState = nil
		v.digest.Steps = append(v.digest.Steps, step)
		return
	case op == engine.OpCreate:
		step.OldState = nil
	case v.verb == "refresh":
		step.Op = "refresh"
	}
	v.digest.Steps = slices.Insert(v.digest.Steps, min(v.phase, len(v.digest.Steps)), step)
}

// write writes the document.
func (v *digestView) write() {
	v.held = false
	enc := json.NewEncoder(v.opts.Out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "    ")
	_ = enc.Encode(v.digest) // a broken pipe has no one left to tell
}
