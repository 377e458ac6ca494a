package display

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// JSONEvent is one line of the JSON view. Event says which kind it is:
//
//	begin        an operation starts (operation, preview, stack, project)
//	step-start   a step is about to call its provider (urn, type, op)
//	step-done    a step finished (durationMs, diff, replaceKeys, error)
//	diagnostic   a message (severity, summary, where, detail)
//	notice       something about the run itself, such as an interrupt
//	summary      the operation ended (counts, durationMs, outputs, outputChanges, error)
//
// Secrets are "[secret]" everywhere.
type JSONEvent struct {
	Event       string            `json:"event"`
	Time        string            `json:"time"`
	Operation   string            `json:"operation,omitempty"`
	Preview     bool              `json:"preview,omitempty"`
	Stack       string            `json:"stack,omitempty"`
	Project     string            `json:"project,omitempty"`
	URN         string            `json:"urn,omitempty"`
	Type        string            `json:"type,omitempty"`
	Op          string            `json:"op,omitempty"`
	DurationMs  *int64            `json:"durationMs,omitempty"`
	Diff        map[string]string `json:"diff,omitempty"`
	ReplaceKeys []string          `json:"replaceKeys,omitempty"`
	Message     string            `json:"message,omitempty"`
	Severity    string            `json:"severity,omitempty"`
	Summary     string            `json:"summary,omitempty"`
	Where       string            `json:"where,omitempty"`
	Path        string            `json:"path,omitempty"`
	Detail      string            `json:"detail,omitempty"`
	Counts      map[string]int    `json:"counts,omitempty"`
	Outputs     map[string]any    `json:"outputs,omitempty"`
	// OutputChanges (summary of a preview) maps each stack output that
	// would change to add, update or delete.
	OutputChanges map[string]string `json:"outputChanges,omitempty"`
	Error         string            `json:"error,omitempty"`
}

// scrub removes known secrets from every free-text field of the event.
func (e *JSONEvent) scrub(s *Scrubber) {
	if s == nil {
		return
	}
	for _, f := range []*string{&e.URN, &e.Message, &e.Summary, &e.Where, &e.Path, &e.Detail, &e.Error} {
		*f = s.Scrub(*f)
	}
	if e.Diff != nil {
		diff := make(map[string]string, len(e.Diff))
		for k, v := range e.Diff {
			diff[s.Scrub(k)] = v
		}
		e.Diff = diff
	}
	scrubAny(s, e.Outputs)
}

// scrubAny scrubs the strings of a JSON value in place.
func scrubAny(s *Scrubber, v any) any {
	switch v := v.(type) {
	case string:
		return s.Scrub(v)
	case []any:
		for i := range v {
			v[i] = scrubAny(s, v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = scrubAny(s, v[k])
		}
	}
	return v
}

type jsonView struct {
	opts  Options
	mu    sync.Mutex
	enc   *json.Encoder
	op    Operation
	start time.Time
}

func newJSONView(opts Options) *jsonView {
	enc := json.NewEncoder(opts.Out)
	enc.SetEscapeHTML(false)
	return &jsonView{opts: opts, enc: enc}
}

func (v *jsonView) write(e JSONEvent) {
	e.scrub(v.opts.Scrubber)
	e.Time = v.opts.now().UTC().Format(time.RFC3339Nano)
	_ = v.enc.Encode(e) // a broken pipe has no one left to tell
}

func (v *jsonView) Begin(op Operation) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.op, v.start = op, v.opts.now()
	v.write(JSONEvent{Event: "begin", Operation: op.Verb, Preview: op.Preview, Stack: op.Stack, Project: op.Project})
}

func (v *jsonView) Event(e engine.Event) {
	if hidden(e, v.opts.Verbose) {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	switch e.Kind {
	case engine.EventStepStart:
		v.write(JSONEvent{Event: "step-start", URN: string(e.URN), Type: e.Type, Op: string(e.Op), Preview: e.Preview})
	case engine.EventStepDone:
		v.write(stepDone(e))
	case engine.EventProvisionerOutput:
		v.write(JSONEvent{Event: "provisioner-output", URN: string(e.URN), Type: e.Type, Message: e.Message})
	case engine.EventDiagnostic:
		v.write(JSONEvent{Event: "diagnostic", Severity: e.Severity.String(), Summary: e.Message, URN: string(e.URN)})
	}
}

func stepDone(e engine.Event) JSONEvent {
	ms := e.Duration.Milliseconds()
	j := JSONEvent{Event: "step-done", URN: string(e.URN), Type: e.Type, Op: string(e.Op), Preview: e.Preview,
		DurationMs: &ms, ReplaceKeys: e.ReplaceKeys, Message: e.Message}
	if e.Err != nil {
		j.Error = e.Err.Error()
	}
	if e.Op == engine.OpUpdate || e.Op == engine.OpReplace || e.Op == engine.OpCreateReplacement || e.Op == engine.OpRefresh {
		for _, c := range changes(e) {
			if j.Diff == nil {
				j.Diff = map[string]string{}
			}
			j.Diff[c.path] = c.kind.String()
		}
	}
	return j
}

func (v *jsonView) Diagnostic(d Diagnostic) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.write(diagnosticEvent(d))
}

func diagnosticEvent(d Diagnostic) JSONEvent {
	return JSONEvent{Event: "diagnostic", Severity: d.Severity.String(), Summary: d.Summary, Where: d.Where, Path: d.Path, Detail: d.Detail}
}

func (v *jsonView) Notice(s string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.write(JSONEvent{Event: "notice", Message: s})
}

func (v *jsonView) End(o Outcome) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, d := range Diagnose(o.Err, v.opts.Verbose) {
		v.write(diagnosticEvent(d))
	}
	ms := v.opts.now().Sub(v.start).Milliseconds()
	s := JSONEvent{Event: "summary", Operation: v.op.Verb, Preview: v.op.Preview, DurationMs: &ms, Counts: map[string]int{}}
	if o.Result != nil {
		for op, n := range o.Result.Counts {
			s.Counts[string(op)] = n
		}
		if o.ShowOutputs {
			s.Outputs = JSONObject(o.Result.Outputs)
		}
		for name, k := range o.outputChanges() {
			if s.OutputChanges == nil {
				s.OutputChanges = map[string]string{}
			}
			s.OutputChanges[name] = k.String()
		}
	}
	if o.Err != nil {
		s.Error = o.Err.Error()
	}
	v.write(s)
}

// JSONObject converts an object to plain JSON values, secrets masked.
func JSONObject(o resource.Object) map[string]any {
	if o == nil {
		return nil
	}
	out := make(map[string]any, len(o))
	for k, v := range o {
		out[k] = JSONValue(v)
	}
	return out
}

// JSONValue converts a value to plain JSON: secrets as "[secret]",
// unknowns as "[unknown]", assets, archives and references as their
// text.
func JSONValue(v resource.Value) any {
	switch v.Kind() {
	case resource.NullKind:
		return nil
	case resource.BoolKind:
		return v.Bool()
	case resource.NumberKind:
		return json.Number(v.NumberLiteral())
	case resource.StringKind:
		return v.Str()
	case resource.ArrayKind:
		out := make([]any, len(v.Array()))
		for i, e := range v.Array() {
			out[i] = JSONValue(e)
		}
		return out
	case resource.ObjectKind:
		return JSONObject(v.Object())
	}
	return v.String()
}
