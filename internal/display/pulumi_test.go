package display

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The scenario of the Pulumi-style tests is one pulumi v3.259.0 was run
// on (a YAML program of the plinth provider's resources): a pet created,
// a pet replaced because its length changed, a file updated, and a pet
// that was a child of the replaced one deleted.
var (
	puStack    = Operation{Verb: "update", Stack: "dev", Project: "p"}
	puPreview  = Operation{Verb: "update", Stack: "dev", Project: "p", Preview: true}
	puProvider = string(urn("pulumi:providers:plinth", "default")) + "::0f1e"
)

func puRes(typ, name, id string, parent resource.URN, inputs resource.Object) *state.Resource {
	return &state.Resource{URN: urn(typ, name), Type: typ, Custom: true, ID: id, Parent: parent, Inputs: inputs, Outputs: inputs, Provider: puProvider}
}

func puEvent(kind engine.EventKind, op engine.StepOp, old, new *state.Resource, preview bool) engine.Event {
	r := new
	if r == nil {
		r = old
	}
	return engine.Event{Kind: kind, Op: op, URN: r.URN, Type: r.Type, Old: old, New: new, Preview: preview, Duration: 50 * time.Millisecond}
}

// puSteps are the scenario's steps, each started (unless a preview) and
// finished, in the order pulumi ran them.
func puSteps(preview bool) []engine.Event {
	extra := puRes("plinth:random:Pet", "extra", "", "", obj("length", 1, "separator", "-"))
	oldPet := puRes("plinth:random:Pet", "pet", "vivid-jaguar", "", obj("length", 2, "separator", "-"))
	newPet := puRes("plinth:random:Pet", "pet", "", "", obj("length", 3, "separator", "-"))
	oldFile := puRes("plinth:fs:File", "file", "/tmp/out/f.txt", "", obj("path", "out/f.txt", "content", "hi vivid-jaguar"))
	newFile := puRes("plinth:fs:File", "file", "/tmp/out/f.txt", "", obj("path", "out/f.txt", "content", resource.Unknown()))
	if !preview {
		newPet.ID, newPet.Inputs = "lightly-keen-owl", obj("length", 3, "separator", "-")
		newFile.Inputs = obj("path", "out/f.txt", "content", "hello lightly-keen-owl")
	}
	note := puRes("plinth:random:Pet", "note", "highly-steady-duck", oldPet.URN, obj("length", 3, "separator", "-"))
	replace := puEvent(engine.EventStepDone, engine.OpCreateReplacement, oldPet, newPet, preview)
	replace.Diff = resource.DetailedDiff{"length": {Kind: resource.DiffUpdate, Replace: true, InputDiff: true}}
	update := puEvent(engine.EventStepDone, engine.OpUpdate, oldFile, newFile, preview)
	update.Diff = resource.DetailedDiff{"content": {Kind: resource.DiffUpdate, InputDiff: true}}
	done := []engine.Event{
		puEvent(engine.EventStepDone, engine.OpCreate, nil, extra, preview),
		replace,
		update,
		puEvent(engine.EventStepDone, engine.OpDelete, note, nil, preview),
		puEvent(engine.EventStepDone, engine.OpDeleteReplaced, oldPet, nil, preview),
	}
	if preview {
		return done
	}
	var events []engine.Event
	for _, e := range done {
		start := e
		start.Kind, start.Duration = engine.EventStepStart, 0
		events = append(events, start, e)
	}
	return events
}

// puCounts are the engine's counts of the scenario: pulumi's "1
// unchanged" is its stack resource, which the Pulumi style adds.
var puCounts = map[engine.StepOp]int{engine.OpCreate: 1, engine.OpUpdate: 1, engine.OpDelete: 1, engine.OpReplace: 1}

// puOutputs are the stack outputs before and after the scenario.
func puOutputs(preview bool) (before, after resource.Object) {
	before = obj("num", 42, "obj", map[string]any{"a": "x", "list": []any{1, "two"}, "nested": map[string]any{"b": true}},
		"petName", "vivid-jaguar", "size", 15)
	before["secret"] = resource.MakeSecret(resource.NewString("s3"))
	after = before.Copy()
	after["petName"], after["size"] = resource.NewString("lightly-keen-owl"), resource.NewNumber(22)
	if preview {
		after["petName"], after["size"] = resource.Unknown(), resource.Unknown()
	}
	return before, after
}

// runPulumiView feeds a Pulumi-style view one operation and returns what
// it wrote, both streams together.
func runPulumiView(opts Options, op Operation, events []engine.Event, o Outcome) string {
	var out bytes.Buffer
	opts.Out, opts.Style, opts.Tick = &out, StylePulumi, -1
	opts.Now = func() time.Time { return time.Time{} }
	v := New(opts)
	v.Begin(op)
	for _, e := range events {
		v.Event(e)
	}
	v.End(o)
	return out.String()
}

// finalFrame keeps what stays on a terminal after a live view: the
// title, and what was drawn after the tree was last erased.
func finalFrame(s string) string {
	title, _, _ := strings.Cut(s, "\x1b[")
	last := s[strings.LastIndex(s, "\x1b[J")+len("\x1b[J"):]
	return title + last
}

// TestPulumiStyle renders the scenario as pulumi does, in plain and live
// output, and compares it with testdata/pulumi/*.txt (rewrite them with
// -update). The golden files were checked line by line against what
// pulumi printed for the same changes (but for trailing blanks, and
// the stack's opening lines, which plinth does not write): plinth
// records no stack resource, but counts it and writes its closing line
// as pulumi does.
func TestPulumiStyle(t *testing.T) {
	before, afterPreview := puOutputs(true)
	_, afterUp := puOutputs(false)
	preview := Outcome{Result: &engine.Result{Counts: puCounts, Outputs: afterPreview}, DiffOutputs: true, PriorOutputs: before}
	up := Outcome{Result: &engine.Result{Counts: puCounts, Outputs: afterUp}, ShowOutputs: true, PriorOutputs: before}
	newStack := Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpCreate: 1}, Outputs: before}, DiffOutputs: true}
	failed := errors.New("plinth:random:Pet resource 'extra': property length value {-1} has a problem: must be at least 1")
	extra := puRes("plinth:random:Pet", "extra", "", "", obj("length", -1))
	failure := puEvent(engine.EventStepDone, engine.OpCreate, nil, extra, true)
	failure.Err = failed
	warning := engine.Event{Kind: engine.EventDiagnostic, Severity: engine.SeverityWarning, Message: "deprecated: use separator"}
	cases := map[string]struct {
		opts    Options
		op      Operation
		events  []engine.Event
		outcome Outcome
		live    bool
	}{
		"preview.txt":        {op: puPreview, events: puSteps(true), outcome: preview},
		"preview-tree.txt":   {opts: Options{Mode: Live}, op: puPreview, events: puSteps(true), outcome: preview, live: true},
		"preview-diff.txt":   {opts: Options{Diff: true}, op: puPreview, events: puSteps(true), outcome: preview},
		"up.txt":             {op: puStack, events: puSteps(false), outcome: up},
		"up-tree.txt":        {opts: Options{Mode: Live}, op: puStack, events: puSteps(false), outcome: up, live: true},
		"no-changes.txt":     {op: puPreview, outcome: Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpSame: 3}, Outputs: before}, DiffOutputs: true, PriorOutputs: before}},
		"new-stack.txt":      {op: puPreview, events: puSteps(true)[:1], outcome: newStack},
		"new-stack-tree.txt": {opts: Options{Mode: Live}, op: puPreview, events: puSteps(true)[:1], outcome: newStack, live: true},
		"refresh.txt": {op: Operation{Verb: "refresh", Stack: "dev", Project: "p"}, events: puRefresh(),
			outcome: Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpUpdate: 1, engine.OpSame: 1}}}},
		"failed.txt": {op: puPreview, events: []engine.Event{warning, failure},
			outcome: Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpCreate: 1}}, Err: Summarise("Preview of update failed", failed)}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got := runPulumiView(c.opts, c.op, c.events, c.outcome)
			if c.live {
				got = finalFrame(got)
			}
			compareGolden(t, filepath.Join("testdata", "pulumi", name), got)
		})
	}
}

// TestPulumiResourcesBlock: the Resources block counts as pulumi's does,
// as pulumi printed it for these counts.
func TestPulumiResourcesBlock(t *testing.T) {
	tests := map[string]struct {
		counts  map[engine.StepOp]int
		preview bool
		errored int
		want    []string
	}{
		"a new stack": {counts: map[engine.StepOp]int{engine.OpCreate: 4}, preview: true, want: []string{"    + 4 to create"}},
		"no changes":  {counts: map[engine.StepOp]int{engine.OpSame: 4}, preview: true, want: []string{"    4 unchanged"}},
		"one kind": {counts: map[engine.StepOp]int{engine.OpUpdate: 1, engine.OpSame: 3}, want: []string{
			"    ~ 1 updated", "    3 unchanged"}},
		"every kind": {counts: map[engine.StepOp]int{engine.OpCreate: 1, engine.OpUpdate: 1, engine.OpDelete: 1, engine.OpReplace: 1, engine.OpSame: 1}, preview: true, want: []string{
			"    + 1 to create", "    ~ 1 to update", "    - 1 to delete", "    +-1 to replace", "    4 changes. 1 unchanged"}},
		"every kind, none unchanged": {counts: map[engine.StepOp]int{engine.OpCreate: 1, engine.OpDelete: 2}, want: []string{
			"    + 1 created", "    - 2 deleted", "    3 changes"}},
		"reads not counted":                       {counts: map[engine.StepOp]int{engine.OpCreate: 3, engine.OpRead: 2}, want: []string{"    + 3 created"}},
		"reads not counted, nothing else changed": {counts: map[engine.StepOp]int{engine.OpRead: 2, engine.OpSame: 3}, preview: true, want: []string{"    3 unchanged"}},
		"destroyed":  {counts: map[engine.StepOp]int{engine.OpDelete: 4}, want: []string{"    - 4 deleted"}},
		"an errored": {counts: map[engine.StepOp]int{engine.OpCreate: 2}, preview: true, errored: 1, want: []string{"    + 2 to create", "    1 errored"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := pulumiResourceLines(painter{}, tc.counts, tc.preview, tc.errored)
			if diff := cmp.Diff(append([]string{"Resources:"}, tc.want...), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPulumiUnchangedReads: a read of an existing resource that found it
// as recorded (the engine counts it unchanged) is left out of the
// Resources block, as pulumi leaves reads out: one updated resource and
// the stack are all pulumi counts here.
func TestPulumiUnchangedReads(t *testing.T) {
	read := puRes("plinth:fs:File", "site", "/tmp/site.html", "", obj("path", "/tmp/site.html"))
	read.External = true
	old := puRes("plinth:fs:File", "file", "/tmp/out/f.txt", "", obj("content", "a"))
	changed := puRes("plinth:fs:File", "file", "/tmp/out/f.txt", "", obj("content", "b"))
	events := []engine.Event{
		puEvent(engine.EventStepDone, engine.OpSame, read, read, false),
		puEvent(engine.EventStepDone, engine.OpUpdate, old, changed, false),
	}
	outcome := Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpSame: 1, engine.OpUpdate: 1}}}
	out := runPulumiView(Options{}, puStack, events, outcome)
	if !strings.Contains(out, "Resources:\n    ~ 1 updated\n    1 unchanged\n") {
		t.Errorf("the Resources block counts the read; want 1 updated and the stack unchanged:\n%s", out)
	}

	// One view shows the preview of `up`, then the update: each counts
	// its own reads.
	var buf bytes.Buffer
	v := New(Options{Out: &buf, Style: StylePulumi, Tick: -1, Now: func() time.Time { return time.Time{} }})
	for _, op := range []Operation{puPreview, puStack} {
		v.Begin(op)
		for _, e := range events {
			v.Event(e)
		}
		v.End(outcome)
	}
	if got := strings.Count(buf.String(), "    1 unchanged\n"); got != 2 {
		t.Errorf("preview then update in one view: %d Resources blocks with the stack unchanged, want 2:\n%s", got, buf.String())
	}
}

// TestPulumiValues: values as pulumi lays them out in the Outputs block
// and in property diffs.
func TestPulumiValues(t *testing.T) {
	tests := map[string]struct {
		v    resource.Value
		want []string
	}{
		"string":  {resource.NewString(`say "hi"`), []string{`"say \"hi\""`}},
		"number":  {resource.NewNumber(42), []string{"42"}},
		"bool":    {resource.NewBool(true), []string{"true"}},
		"secret":  {resource.MakeSecret(resource.NewString("s")), []string{"[secret]"}},
		"unknown": {resource.Unknown(), []string{"[unknown]"}},
		"empty":   {resource.NewArray(), []string{"[]"}},
		"nested": {resource.NewObject(obj("a", "x", "list", []any{1, "two"}, "nested", map[string]any{"b": true})), []string{
			"{",
			`        a     : "x"`,
			"        list  : [",
			"            [0]: 1",
			`            [1]: "two"`,
			"        ]",
			"        nested: {",
			"            b: true",
			"        }",
			"    }",
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, pulumiValueLines(tc.v, "    ")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPulumiPreviewDigest: plinth preview --json of a Pulumi program is
// one document shaped like pulumi preview --json: a replacement is one
// replace step with its old and new state, an unchanged resource is no
// step, values not yet known are pulumi's unknown, secrets [secret]; the
// stack resource, which plinth does not record, is listed first as the
// same, with its recorded outputs, as pulumi lists it.
func TestPulumiPreviewDigest(t *testing.T) {
	before, after := puOutputs(true)
	var out, errOut bytes.Buffer
	v := New(Options{Out: &out, ErrOut: &errOut, Mode: JSON, Style: StylePulumi, Digest: true, Now: func() time.Time { return time.Time{} }})
	v.Begin(puPreview)
	same := puRes("plinth:random:Pet", "kept", "k", "", obj("length", 1))
	v.Event(puEvent(engine.EventStepDone, engine.OpSame, same, same, true))
	for _, e := range puSteps(true) {
		v.Event(e)
	}
	v.Notice("Recovered 1 journal entry")
	v.End(Outcome{Result: &engine.Result{Counts: puCounts, Outputs: after}, DiffOutputs: true, PriorOutputs: before})

	var d PreviewDigest
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("not one JSON document: %v\n%s", err, out.String())
	}
	if dec.More() {
		t.Errorf("more than one JSON document:\n%s", out.String())
	}
	var ops []string
	for _, s := range d.Steps {
		ops = append(ops, s.Op+" "+resource.URN(s.URN).Name())
	}
	if diff := cmp.Diff([]string{"same p-dev", "create extra", "replace pet", "update file", "delete note"}, ops); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	replace := d.Steps[2]
	if diff := cmp.Diff(map[string]DigestPropertyDiff{"length": {Kind: "update-replace", InputDiff: true}}, replace.DetailedDiff); diff != "" {
		t.Errorf("the replacement's detailedDiff (-want +got):\n%s", diff)
	}
	if replace.OldState == nil || replace.OldState.ID != "vivid-jaguar" || replace.NewState == nil || replace.Provider != puProvider ||
		!cmp.Equal(replace.ReplaceReasons, []string{"length"}) || !cmp.Equal(replace.DiffReasons, []string{"length"}) {
		t.Errorf("the replacement step lacks its states, provider or reasons: %+v", replace)
	}
	if got := d.Steps[3].NewState.Inputs["content"]; got != pulumiUnknown {
		t.Errorf("an unknown input is %v, want pulumi's unknown %s", got, pulumiUnknown)
	}
	if d.Steps[4].OldState.Parent != string(urn("plinth:random:Pet", "pet")) || d.Steps[4].NewState != nil {
		t.Errorf("the delete's states: old %+v, new %+v", d.Steps[4].OldState, d.Steps[4].NewState)
	}
	if st := d.Steps[0]; st.OldState == nil || st.OldState.Type != "pulumi:pulumi:Stack" || st.OldState.Outputs["num"] != float64(42) || st.NewState == nil || st.NewState.Outputs != nil {
		t.Errorf("the stack's step: old %+v, new %+v", st.OldState, st.NewState)
	}
	if diff := cmp.Diff(map[string]int{"create": 1, "update": 1, "delete": 1, "replace": 1, "same": 1}, d.ChangeSummary); diff != "" {
		t.Errorf("changeSummary (-want +got):\n%s", diff)
	}
	if d.Outputs["secret"] != "[secret]" || d.Outputs["petName"] != pulumiUnknown || d.Outputs["num"] != float64(42) {
		t.Errorf("outputs: %v", d.Outputs)
	}
	if !strings.Contains(errOut.String(), "Recovered 1 journal entry") {
		t.Errorf("a notice did not go to the error stream: %q", errOut.String())
	}
}

// TestPulumiDigestDiagnostics: a failed preview's document carries its
// errors as diagnostics, the step's under its URN and the operation's
// naming plinth.
func TestPulumiDigestDiagnostics(t *testing.T) {
	var out bytes.Buffer
	v := New(Options{Out: &out, Mode: JSON, Style: StylePulumi, Digest: true})
	v.Begin(puPreview)
	extra := puRes("plinth:random:Pet", "extra", "", "", obj("length", -1))
	e := puEvent(engine.EventStepDone, engine.OpCreate, nil, extra, true)
	e.Err = errors.New("length must be at least 1")
	v.Event(e)
	v.End(Outcome{Err: Summarise("Preview of update failed", errors.New("1 resource failed"))})
	var d PreviewDigest
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	want := []DigestDiagnostic{
		{URN: string(extra.URN), Message: "length must be at least 1", Severity: "error"},
		{Message: "plinth: Preview of update failed: 1 resource failed", Severity: "error"},
	}
	if diff := cmp.Diff(want, d.Diagnostics); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestPulumiStyleLeavesOthersAlone: the Pulumi style is chosen only for
// it; plinth's own view and the JSON events are as they were, and the
// digest is only for the Pulumi style.
func TestPulumiStyleLeavesOthersAlone(t *testing.T) {
	for _, style := range []Style{StylePlinth, StyleTerraform} {
		var out bytes.Buffer
		v := New(Options{Out: &out, Style: style, Mode: JSON, Digest: true})
		v.Begin(puPreview)
		v.End(Outcome{Result: &engine.Result{Counts: puCounts}})
		if !strings.Contains(out.String(), `"event":"begin"`) {
			t.Errorf("style %d with Digest: not JSON events:\n%s", style, out.String())
		}
	}
	var out bytes.Buffer
	v := New(Options{Out: &out})
	v.Begin(puPreview)
	v.End(Outcome{Result: &engine.Result{Counts: puCounts}})
	if s := out.String(); !strings.Contains(s, "Preview: 1 to create") || strings.Contains(s, "Resources:") {
		t.Errorf("the plinth style changed:\n%s", s)
	}
}

// TestPulumiProgramLogs: what the program logs shows as pulumi shows it,
// on a line under its resource as it comes (an info message without a
// label) and again in the Diagnostics block; another diagnostic is
// written as plinth writes it.
func TestPulumiProgramLogs(t *testing.T) {
	var out bytes.Buffer
	v := New(Options{Out: &out, Style: StylePulumi, Now: func() time.Time { return time.Time{} }})
	v.Diagnostic(Diagnostic{Severity: engine.SeverityInfo, Summary: "Program output", Detail: "early", Logged: true})
	v.Begin(puPreview)
	pet := urn("plinth:random:Pet", "pet")
	v.Diagnostic(Diagnostic{Severity: engine.SeverityInfo, Summary: "Program output", Detail: "hello", Logged: true})
	v.Diagnostic(Diagnostic{Severity: engine.SeverityWarning, Summary: "Program warning", Where: string(pet), Detail: "careful", Logged: true})
	v.Diagnostic(Diagnostic{Severity: engine.SeverityWarning, Summary: "Pending operations", Detail: "see plinth state pending"})
	v.End(Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpSame: 1}}})
	want := []string{
		"info: Program output",
		"    early",
		"Previewing update (dev):",
		"",
		"    pulumi:pulumi:Stack p-dev  hello",
		"    plinth:random:Pet pet  warning: careful",
		"warning: Pending operations",
		"    see plinth state pending",
		"    pulumi:pulumi:Stack p-dev  1 message",
		"Diagnostics:",
		"  pulumi:pulumi:Stack (p-dev):",
		"    hello",
		"",
		"  plinth:random:Pet (pet):",
		"    warning: careful",
		"",
		"Resources:",
		"    2 unchanged", // the pet and the stack
		"",
		"",
	}
	if diff := cmp.Diff(want, strings.Split(out.String(), "\n")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestPulumiTreeTicks: on a terminal the tree is redrawn as time passes,
// so a step in flight shows how long it has been running, as pulumi's
// does, and End stops the redrawing.
func TestPulumiTreeTicks(t *testing.T) {
	var out syncBuffer
	var clock sync.Mutex
	now := time.Time{}
	tick := func() time.Time {
		clock.Lock()
		defer clock.Unlock()
		now = now.Add(time.Second)
		return now
	}
	v := New(Options{Out: &out, Style: StylePulumi, Mode: Live, Tick: time.Millisecond, Now: tick})
	v.Begin(puStack)
	pet := puRes("plinth:random:Pet", "pet", "", "", obj("length", 2))
	v.Event(puEvent(engine.EventStepStart, engine.OpCreate, nil, pet, false))
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "creating (4s)") && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	v.End(Outcome{Err: errors.New("stopped")})
	if !strings.Contains(out.String(), "creating (4s)") {
		t.Fatalf("the tree was not redrawn with the step's running time:\n%s", out.String())
	}
	after := out.String()
	time.Sleep(20 * time.Millisecond)
	if out.String() != after {
		t.Errorf("the tree was redrawn after End")
	}
}

// syncBuffer is a bytes.Buffer safe for the ticker and the test at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestPulumiDiffInfo: a step's Info groups its changed properties by
// kind, as pulumi printed "[diff: +prefix~length,separator]" for a pet
// given a prefix and a new length and separator.
func TestPulumiDiffInfo(t *testing.T) {
	cs := []change{{path: "length", kind: resource.DiffUpdate}, {path: "prefix", kind: resource.DiffAdd}, {path: "separator", kind: resource.DiffUpdate}, {path: "tags.a", kind: resource.DiffUpdate}}
	if got, want := pulumiDiffInfo(cs), "[diff: +prefix~length,separator,tags]"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// puRefresh is a refresh that finds a file changed outside plinth and a
// pet as it was: pulumi calls the first an update and the second same.
func puRefresh() []engine.Event {
	pet := puRes("plinth:random:Pet", "pet", "vivid-jaguar", "", obj("length", 2))
	file := puRes("plinth:fs:File", "file", "/tmp/out/f.txt", "", obj("content", "hi"))
	drifted := puRes("plinth:fs:File", "file", "/tmp/out/f.txt", "", obj("content", "drift"))
	var events []engine.Event
	for _, e := range []engine.Event{
		puEvent(engine.EventStepDone, engine.OpRefresh, pet, pet, false),
		puEvent(engine.EventStepDone, engine.OpRefresh, file, drifted, false),
	} {
		start := e
		start.Kind, start.Duration = engine.EventStepStart, 0
		events = append(events, start, e)
	}
	events[3].Diff = resource.DetailedDiff{"content": {Kind: resource.DiffUpdate}}
	return events
}

// TestPulumiDigestRefreshPreview: preview --refresh --json is one
// document, as pulumi writes it: the refresh's steps, then the
// preview's, each phase's listing the stack resource first (refreshed,
// then the same), as pulumi's does; the changeSummary the preview's; a
// refresh that fails is its own document, as no preview follows.
func TestPulumiDigestRefreshPreview(t *testing.T) {
	kept := puRes("plinth:random:Pet", "kept", "k", "", obj("length", 1))
	extra := puRes("plinth:random:Pet", "extra", "", "", obj("length", 2))
	refresh := Operation{Verb: "refresh", Preview: true, Stack: "dev", Project: "quickstart", Prelude: true}
	tests := []struct {
		name       string
		refreshErr error
		wantOps    []string
		wantSum    map[string]int
	}{
		{name: "refreshed", wantOps: []string{"refresh quickstart-dev", "refresh kept", "same p-dev", "create extra"}, wantSum: map[string]int{"create": 1, "same": 2}}, // kept and the stack
		{name: "refresh failed", refreshErr: errors.New("provider gone"), wantOps: []string{"refresh kept"}, wantSum: map[string]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			v := New(Options{Out: &out, Mode: JSON, Style: StylePulumi, Digest: true})
			v.Begin(refresh)
			v.Event(puEvent(engine.EventStepDone, engine.OpRefresh, kept, kept, true))
			if tt.refreshErr != nil {
				v.End(Outcome{Err: Summarise("Preview of refresh failed", tt.refreshErr)})
			} else {
				v.End(Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpRefresh: 1}}})
				v.Begin(puPreview)
				v.Event(puEvent(engine.EventStepDone, engine.OpCreate, nil, extra, true))
				v.End(Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpCreate: 1, engine.OpSame: 1}}})
			}
			dec := json.NewDecoder(&out)
			var d PreviewDigest
			if err := dec.Decode(&d); err != nil {
				t.Fatalf("not a JSON document: %v\n%s", err, out.String())
			}
			if dec.More() {
				t.Errorf("more than one JSON document:\n%s", out.String())
			}
			var ops []string
			for _, s := range d.Steps {
				ops = append(ops, s.Op+" "+resource.URN(s.URN).Name())
			}
			if diff := cmp.Diff(tt.wantOps, ops); diff != "" {
				t.Errorf("steps (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantSum, d.ChangeSummary); diff != "" {
				t.Errorf("changeSummary (-want +got):\n%s", diff)
			}
		})
	}
}
