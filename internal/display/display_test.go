package display

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func obj(kv ...any) resource.Object {
	o := resource.Object{}
	for i := 0; i < len(kv); i += 2 {
		o[kv[i].(string)] = resource.MustFromGo(kv[i+1])
	}
	return o
}

func TestDoneLines(t *testing.T) {
	secret := resource.MakeSecret(resource.NewString("hunter2"))
	file := func(in resource.Object) *state.Resource {
		return &state.Resource{URN: urn("plinth:fs:File", "note"), Type: "plinth:fs:File", Inputs: in}
	}
	oldFile := file(obj("path", "a.txt", "content", "one", "mode", "0644"))
	newFile := file(obj("path", "a.txt", "content", "two", "owner", "me"))
	secretOld, secretNew := file(obj("token", "x")), file(obj("token", "x"))
	secretOld.Inputs["token"], secretNew.Inputs["token"] = secret, resource.MakeSecret(resource.NewString("swordfish"))
	update := engine.Event{Kind: engine.EventStepDone, Op: engine.OpUpdate, URN: oldFile.URN, Type: oldFile.Type, Old: oldFile, New: newFile, Preview: true}
	replace := update
	replace.Op, replace.Diff = engine.OpCreateReplacement, resource.DetailedDiff{"path": {Kind: resource.DiffUpdate, Replace: true}}
	replace.New = file(obj("path", "b.txt"))
	create := engine.Event{Kind: engine.EventStepDone, Op: engine.OpCreate, URN: oldFile.URN, Type: oldFile.Type, New: file(obj("path", "a.txt", "content", "x")), Duration: 2 * time.Second}
	secretUpdate := update
	secretUpdate.Old, secretUpdate.New = secretOld, secretNew
	same := update
	same.Op = engine.OpSame
	// After a refresh found the file edited outside plinth, the provider
	// compares the new inputs with the recorded outputs.
	drifted := update
	drifted.Old, drifted.New = file(obj("content", "two")), file(obj("content", "two"))
	drifted.Old.Outputs = obj("content", "edited outside")
	drifted.Diff = resource.DetailedDiff{"content": {Kind: resource.DiffUpdate}}
	inputDiff := drifted
	inputDiff.Diff = resource.DetailedDiff{"content": {Kind: resource.DiffUpdate, InputDiff: true}}
	// A provider's diff names a property it computes: the new value is the
	// new output, unknown in a preview until the step runs.
	computed := replace
	computed.Old = file(obj("path", "a.txt"))
	computed.Old.Outputs = obj("path", "a.txt", "sha", "aaa", "size", 1)
	computed.New = file(obj("path", "b.txt"))
	computed.New.Outputs = obj("path", "b.txt", "size", 2)
	computed.Diff = resource.DetailedDiff{"path": {Kind: resource.DiffUpdate, Replace: true}, "sha": {Kind: resource.DiffUpdate}, "size": {Kind: resource.DiffUpdate}}
	computedDone := computed
	computedDone.Preview = false

	cases := map[string]struct {
		f    formatter
		e    engine.Event
		want []string
	}{
		"update summary": {formatter{}, update, []string{"  ~ update note (plinth:fs:File) [diff: ~content, -mode, +owner]"}},
		"update diff": {formatter{diff: true}, update, []string{
			"  ~ update note (plinth:fs:File)",
			`      ~ content: "one" => "two"`,
			`      - mode: "0644"`,
			`      + owner: "me"`,
		}},
		"replace summary": {formatter{}, replace, []string{"  +- replace note (plinth:fs:File) [diff: ~path] [forces replacement: path]"}},
		"replace diff": {formatter{diff: true}, replace, []string{
			"  +- replace note (plinth:fs:File)",
			`      ~ path: "a.txt" => "b.txt" (forces replacement)`,
		}},
		"create done": {formatter{}, create, []string{"  + created note (plinth:fs:File) (2.0s)"}},
		"create diff": {formatter{diff: true}, create, []string{
			"  + created note (plinth:fs:File) (2.0s)",
			`      + content: "x"`,
			`      + path: "a.txt"`,
		}},
		"secrets masked": {formatter{diff: true}, secretUpdate, []string{
			"  ~ update note (plinth:fs:File)",
			"      ~ token: [secret] => [secret]",
		}},
		"drift: old value from the outputs": {formatter{diff: true}, drifted, []string{
			"  ~ update note (plinth:fs:File)",
			`      ~ content: "edited outside" => "two"`,
		}},
		"input diff: old value from the inputs": {formatter{diff: true}, inputDiff, []string{
			"  ~ update note (plinth:fs:File)",
			`      ~ content: "two" => "two"`,
		}},
		"computed property in a preview": {formatter{diff: true}, computed, []string{
			"  +- replace note (plinth:fs:File)",
			`      ~ path: "a.txt" => "b.txt" (forces replacement)`,
			`      ~ sha: "aaa" => [unknown]`,
			`      ~ size: 1 => 2`,
		}},
		"computed property done": {formatter{diff: true}, computedDone, []string{
			"  +- replaced note (plinth:fs:File)",
			`      ~ path: "a.txt" => "b.txt" (forces replacement)`,
			`      ~ sha: "aaa" => null`,
			`      ~ size: 1 => 2`,
		}},
		"same hidden":       {formatter{}, same, nil},
		"same when verbose": {formatter{verbose: true}, same, []string{"    same note (plinth:fs:File)"}},
		"coloured": {formatter{painter: painter{on: true}}, create, []string{
			"  \x1b[32m+ created\x1b[0m note (plinth:fs:File)\x1b[2m (2.0s)\x1b[0m"}},
	}
	for name, c := range cases {
		if diff := cmp.Diff(c.want, c.f.doneLines(c.e)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestNothingSecretLeaks(t *testing.T) {
	secret := resource.MakeSecret(resource.NewString("hunter2"))
	nested := resource.NewObject(resource.Object{"list": resource.NewArray(secret)})
	r := &state.Resource{URN: urn("t:m:T", "r"), Type: "t:m:T", Inputs: resource.Object{"a": secret, "b": nested}}
	var out bytes.Buffer
	for _, mode := range []Mode{Plain, JSON} {
		v := New(Options{Out: &out, Mode: mode, Diff: true, Verbose: true})
		v.Begin(Operation{Verb: "update", Stack: "dev"})
		v.Event(engine.Event{Kind: engine.EventStepDone, Op: engine.OpCreate, URN: r.URN, Type: r.Type, New: r})
		v.End(Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpCreate: 1}, Outputs: r.Inputs}, ShowOutputs: true})
	}
	if strings.Contains(out.String(), "hunter2") {
		t.Errorf("a secret was shown:\n%s", out.String())
	}
	if got := strings.Count(out.String(), "[secret]"); got < 6 {
		t.Errorf("secrets shown as [secret] %d times, want at least 6:\n%s", got, out.String())
	}
}

func TestCounts(t *testing.T) {
	cases := map[string]struct {
		counts  map[engine.StepOp]int
		preview bool
		want    string
	}{
		"none":    {nil, false, "no changes"},
		"update":  {map[engine.StepOp]int{engine.OpSame: 3, engine.OpCreate: 2, engine.OpReplace: 1}, false, "2 created, 1 replaced, 3 unchanged"},
		"preview": {map[engine.StepOp]int{engine.OpDelete: 1, engine.OpUpdate: 4}, true, "4 to update, 1 to delete"},
		"unknown": {map[engine.StepOp]int{"frobnicate": 1}, false, "1 frobnicate"},
	}
	for name, c := range cases {
		if got := Counts(c.counts, c.preview); got != c.want {
			t.Errorf("%s: Counts = %q, want %q", name, got, c.want)
		}
	}
}

func TestDiagnose(t *testing.T) {
	u := urn("plinth:fs:File", "note")
	progDiags := program.Diagnostics{
		{Severity: program.Error, Summary: "Unknown reference", File: "plinth.yaml", Line: 3, Column: 7, Path: "resources.a", Detail: "Fix it."},
		{Severity: program.Warning, Summary: "Ignored", File: "plinth.yaml"},
	}
	cases := map[string]struct {
		err  error
		want []Diagnostic
	}{
		"program": {fmt.Errorf("the program failed: %w", progDiags), []Diagnostic{
			{Severity: engine.SeverityError, Summary: "Unknown reference", Where: "plinth.yaml:3:7", Path: "resources.a", Detail: "Fix it."}}},
		"operation": {&engine.OperationError{Verb: "update", Errs: []error{
			&engine.ProtectedError{URN: u, Action: "delete"},
			fmt.Errorf("creating %s: %w", u, &engine.CheckError{URN: u, Failures: []provider.CheckFailure{{Property: "path", Reason: "must not be empty"}}}),
		}}, []Diagnostic{
			{Severity: engine.SeverityError, Summary: "Protected resource", Where: string(u), Detail: (&engine.ProtectedError{URN: u, Action: "delete"}).Error()},
			{Severity: engine.SeverityError, Summary: "Invalid inputs", Where: string(u),
				Detail: "The provider rejected the inputs of " + string(u) + ":\n  path: must not be empty\nFix these properties in the program."},
		}},
		"step": {&engine.OperationError{Verb: "update", Errs: []error{&engine.StepError{URN: u, Err: fmt.Errorf("creating %s: the create command exited with status 1", u)}}}, []Diagnostic{
			{Severity: engine.SeverityError, Summary: "Resource failed", Where: string(u), Detail: "creating " + string(u) + ": the create command exited with status 1"}}},
		"step, the URN only in the text": {&engine.OperationError{Verb: "update", Errs: []error{fmt.Errorf("creating %s: exit 1", u)}}, []Diagnostic{
			{Severity: engine.SeverityError, Summary: "Resource failed", Detail: "creating " + string(u) + ": exit 1"}}},
		"step with a kind": {&engine.OperationError{Verb: "update", Errs: []error{&engine.StepError{URN: u, Err: fmt.Errorf("reading a secret: %w", state.ErrCannotDecrypt)}}}, []Diagnostic{
			{Severity: engine.SeverityError, Summary: "Cannot decrypt secrets", Detail: "reading a secret: cannot decrypt a secret"}}},
		"unmatched target": {fmt.Errorf("preview: %w", &engine.UnmatchedTargetError{Targets: []resource.URN{u}}), []Diagnostic{
			{Severity: engine.SeverityError, Summary: "Target matches no resource", Detail: (&engine.UnmatchedTargetError{Targets: []resource.URN{u}}).Error()}}},
		"missing state": {&state.MissingSnapshotError{Stack: "dev", Where: "/x/snapshot.json"}, []Diagnostic{
			{Severity: engine.SeverityError, Summary: "Missing state", Where: "/x/snapshot.json", Detail: (&state.MissingSnapshotError{Stack: "dev", Where: "/x/snapshot.json"}).Error()}}},
		"lock": {&state.LockedError{Stack: "dev"}, []Diagnostic{{Severity: engine.SeverityError, Summary: "Stack is locked", Detail: (&state.LockedError{Stack: "dev"}).Error()}}},
		"passphrase": {fmt.Errorf("opening: %w", secrets.ErrWrongPassphrase), []Diagnostic{
			{Severity: engine.SeverityError, Summary: "Wrong passphrase", Detail: "opening: wrong passphrase"}}},
		"damaged": {&state.DamagedError{Where: "/x/snapshot.json", Err: errors.New("bad")}, []Diagnostic{
			{Severity: engine.SeverityError, Summary: "Damaged state", Where: "/x/snapshot.json", Detail: (&state.DamagedError{Where: "/x/snapshot.json", Err: errors.New("bad")}).Error()}}},
		"own": {Errorf("Confirmation needed", "Add --%s.", "yes"), []Diagnostic{{Severity: engine.SeverityError, Summary: "Confirmation needed", Detail: "Add --yes."}}},
		"stack trace cut": {errors.New("provider panicked: boom\ngoroutine 7 [running]:\nmain.f()\n\t/x.go:3"), []Diagnostic{
			{Severity: engine.SeverityError, Summary: "Error", Detail: "provider panicked: boom\n(run with --verbose to see the stack trace)"}}},
		"nil": {nil, nil},
	}
	for name, c := range cases {
		if diff := cmp.Diff(c.want, Diagnose(c.err, false)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestDiagnosticText(t *testing.T) {
	d := Diagnostic{Severity: engine.SeverityError, Summary: "Unknown reference", Where: "plinth.yaml:3:7", Path: "resources.a", Detail: "Line one.\nLine two."}
	want := "error: plinth.yaml:3:7: Unknown reference (resources.a)\n    Line one.\n    Line two."
	if got := d.Format(false); got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
}

func TestJSONValue(t *testing.T) {
	v := resource.NewObject(resource.Object{
		"n": resource.NewNumber(1.5), "s": resource.NewString("x"), "b": resource.NewBool(true),
		"secret": resource.MakeSecret(resource.NewString("hunter2")), "unknown": resource.Unknown(),
		"list": resource.NewArray(resource.Null()),
	})
	got := fmt.Sprint(JSONValue(v))
	want := "map[b:true list:[<nil>] n:1.5 s:x secret:[secret] unknown:[unknown]]"
	if got != want {
		t.Errorf("JSONValue = %s, want %s", got, want)
	}
}

func TestLiveViewRedraws(t *testing.T) {
	var out bytes.Buffer
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	v := New(Options{Out: &out, Mode: Live, Tick: -1, Now: func() time.Time { return now }})
	v.Begin(Operation{Verb: "update", Stack: "dev"})
	v.Event(stepEvent(engine.EventStepStart, engine.OpCreate, "t:m:T", "a"))
	e := stepEvent(engine.EventStepDone, engine.OpCreate, "t:m:T", "a")
	v.Event(e)
	v.End(Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpCreate: 1}}})
	want := "Updating stack dev\n" +
		"0/0 done, 0ms\n" +
		"\x1b[1A\x1b[J  + creating a (t:m:T) 0ms\n0/1 done, 1 in progress, 0ms\n" +
		"\x1b[2A\x1b[J  + created a (t:m:T)\n1/1 done, 0ms\n" +
		"\x1b[1A\x1b[J" +
		"Update done: 1 created (0ms)\n"
	if diff := cmp.Diff(strings.Split(want, "\n"), strings.Split(out.String(), "\n")); diff != "" {
		t.Errorf("live output (-want +got):\n%s", diff)
	}
}

func TestDefaultProvidersHidden(t *testing.T) {
	e := stepEvent(engine.EventStepDone, engine.OpCreate, "pulumi:providers:plinth", "default")
	explicit := stepEvent(engine.EventStepDone, engine.OpCreate, "pulumi:providers:plinth", "mine")
	failed := e
	failed.Err = errors.New("bad configuration")
	cases := map[string]struct {
		e       engine.Event
		verbose bool
		want    bool
	}{
		"default":          {e, false, true},
		"default, verbose": {e, true, false},
		"explicit":         {explicit, false, false},
		"default, failed":  {failed, false, false},
	}
	for name, c := range cases {
		if got := hidden(c.e, c.verbose); got != c.want {
			t.Errorf("%s: hidden = %v, want %v", name, got, c.want)
		}
	}
}

// TestDiffOfSecretMap: a property that changed inside a secret map is
// shown as [secret] on both sides, in the --diff lines and in JSON (item
// 9: the old value used to be printed).
func TestDiffOfSecretMap(t *testing.T) {
	file := func(v string) *state.Resource {
		m := resource.MakeSecret(resource.NewObject(resource.Object{"password": resource.NewString(v)}))
		return &state.Resource{URN: urn("plinth:fs:File", "note"), Type: "plinth:fs:File", Inputs: resource.Object{"env": m}}
	}
	e := engine.Event{Kind: engine.EventStepDone, Op: engine.OpUpdate, URN: file("").URN, Type: "plinth:fs:File", Old: file("oldpass"), New: file("newpass"), Preview: true}
	want := []string{"  ~ update note (plinth:fs:File)", "      ~ env.password: [secret] => [secret]"}
	if diff := cmp.Diff(want, formatter{diff: true}.doneLines(e)); diff != "" {
		t.Errorf("doneLines (-want +got):\n%s", diff)
	}
	for _, mode := range []Mode{Plain, JSON} {
		var out bytes.Buffer
		v := New(Options{Out: &out, Mode: mode, Diff: true, Verbose: true})
		v.Begin(Operation{Verb: "update", Stack: "dev"})
		v.Event(e)
		v.End(Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpUpdate: 1}}})
		if strings.Contains(out.String(), "oldpass") || strings.Contains(out.String(), "newpass") {
			t.Errorf("mode %d showed a secret:\n%s", mode, out.String())
		}
	}
}

// TestDiagnoseWhereFromCause: a cause that carries where it failed (a
// provider's call error naming its resource) places a failed step even
// without the engine's StepError around it.
func TestDiagnoseWhereFromCause(t *testing.T) {
	u := urn("plinth:fs:File", "note")
	err := &engine.OperationError{Verb: "update", Errs: []error{fmt.Errorf("creating: %w", &provider.StateTooLargeError{URN: u, Size: 20 << 20})}}
	got := Diagnose(err, false)
	if len(got) != 1 || got[0].Summary != "Resource failed" || got[0].Where != string(u) {
		t.Errorf("Diagnose = %+v, want one \"Resource failed\" at %s", got, u)
	}
}
