package display

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func urn(typ, name string) resource.URN { return resource.NewURN("dev", "p", "", typ, name) }

func stepEvent(kind engine.EventKind, op engine.StepOp, typ, name string) engine.Event {
	r := &state.Resource{URN: urn(typ, name), Type: typ}
	e := engine.Event{Kind: kind, Op: op, URN: r.URN, Type: typ, New: r}
	if op == engine.OpDelete {
		e.Old, e.New = r, nil
	}
	return e
}

// TestLiveModel feeds the live view's model a run and checks, after
// each event, the lines that scroll up and the block it would draw.
func TestLiveModel(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	m := NewLiveModel(Options{}, Operation{Verb: "update", Expected: 3}, t0)
	done := func(e engine.Event, d time.Duration) engine.Event {
		e.Kind, e.Duration = engine.EventStepDone, d
		return e
	}
	pet := stepEvent(engine.EventStepStart, engine.OpCreate, "plinth:random:Pet", "pet")
	file := stepEvent(engine.EventStepStart, engine.OpCreate, "plinth:fs:File", "note")
	old := stepEvent(engine.EventStepStart, engine.OpDelete, "plinth:fs:File", "old")
	prov := stepEvent(engine.EventStepDone, engine.OpCreate, "pulumi:providers:plinth", "default")
	failed := done(old, 0)
	failed.Err = errors.New("permission denied\nmore detail")

	steps := []struct {
		at        int
		event     engine.Event
		permanent []string
		frame     []string
	}{
		{0, prov, nil, []string{"0/3 done, 0ms"}},
		{100, pet, nil, []string{"  + creating pet (plinth:random:Pet) 0ms", "0/3 done, 1 in progress, 100ms"}},
		{250, file, nil, []string{
			"  + creating pet (plinth:random:Pet) 150ms",
			"  + creating note (plinth:fs:File) 0ms",
			"0/3 done, 2 in progress, 250ms"}},
		{1300, done(pet, 1200*time.Millisecond), []string{"  + created pet (plinth:random:Pet) (1.2s)"}, []string{
			"  + creating note (plinth:fs:File) 1.1s",
			"1/3 done, 1 in progress, 1.3s"}},
		{1400, old, nil, []string{
			"  + creating note (plinth:fs:File) 1.1s",
			"  - deleting old (plinth:fs:File) 0ms",
			"1/3 done, 2 in progress, 1.4s"}},
		{1500, failed, []string{"  - delete failed old (plinth:fs:File): permission denied …"}, []string{
			"  + creating note (plinth:fs:File) 1.2s",
			"2/3 done, 1 in progress, 1.5s"}},
		{2000, done(file, 1750*time.Millisecond), []string{"  + created note (plinth:fs:File) (1.8s)"}, []string{"3/3 done, 2.0s"}},
	}
	for i, s := range steps {
		if diff := cmp.Diff(s.permanent, m.Apply(s.event, at(s.at))); diff != "" {
			t.Errorf("step %d: permanent lines (-want +got):\n%s", i, diff)
		}
		if diff := cmp.Diff(s.frame, m.Frame(at(s.at))); diff != "" {
			t.Errorf("step %d: frame (-want +got):\n%s", i, diff)
		}
	}
}

func TestLiveModelGrowsTotal(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	m := NewLiveModel(Options{}, Operation{Verb: "update"}, t0)
	for i, name := range []string{"a", "b", "c"} {
		m.Apply(stepEvent(engine.EventStepStart, engine.OpCreate, "t:m:T", name), t0)
		_ = i
	}
	frame := m.Frame(t0)
	if got, want := frame[len(frame)-1], "0/3 done, 3 in progress, 0ms"; got != want {
		t.Errorf("status = %q, want %q", got, want)
	}
}

func TestLiveModelCapsInFlight(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	m := NewLiveModel(Options{}, Operation{Verb: "update"}, t0)
	for i := 0; i < maxInFlightLines+5; i++ {
		m.Apply(stepEvent(engine.EventStepStart, engine.OpCreate, "t:m:T", "r"+itoa(i)), t0)
	}
	frame := m.Frame(t0)
	if len(frame) != maxInFlightLines+2 || frame[maxInFlightLines] != "  … and 5 more" {
		t.Errorf("frame of %d steps in flight:\n%q", maxInFlightLines+5, frame)
	}
}

func TestFit(t *testing.T) {
	red := painter{on: true}.paint(colourRed, "abcdef")
	cases := map[string]struct {
		in    string
		width int
		want  string
	}{
		"no width":          {"abcdef", 0, "abcdef"},
		"fits":              {"abc", 10, "abc"},
		"cut":               {"abcdefgh", 5, "abcd"},
		"colour takes none": {red, 4, "\x1b[31mabc\x1b[0m"},
		"runes":             {"ééééé", 3, "éé"},
	}
	for name, c := range cases {
		if got := fit(c.in, c.width); got != c.want {
			t.Errorf("%s: fit(%q, %d) = %q, want %q", name, c.in, c.width, got, c.want)
		}
	}
}
